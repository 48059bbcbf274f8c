package dev.egress.border.ssrf;

import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** The table of targets the SSRF guard must refuse, with the reason it must give. Shared by unit and endpoint tests. */
public final class SsrfTargets {

    private SsrfTargets() {}

    /**
     * URL and expected reason, none of which may ever be connected to.
     *
     * @return the cases
     */
    public static Stream<Arguments> denied() {
        return Stream.concat(deniedAddresses(), deniedForms());
    }

    /** Addresses in a denied range, in every spelling. */
    private static Stream<Arguments> deniedAddresses() {
        return Stream.of(
                // loopback in every notation
                Arguments.of("http://127.0.0.1/", "DENIED_RANGE"),
                Arguments.of("http://127.0.0.2:8080/x", "DENIED_RANGE"),
                Arguments.of("http://127.255.255.254/", "DENIED_RANGE"),
                Arguments.of("http://2130706433/", "DENIED_RANGE"),
                Arguments.of("http://0x7f000001/", "DENIED_RANGE"),
                Arguments.of("http://0x7f.0x0.0x0.0x1/", "DENIED_RANGE"),
                Arguments.of("http://0177.0.0.1/", "DENIED_RANGE"),
                Arguments.of("http://017700000001/", "DENIED_RANGE"),
                Arguments.of("http://127.1/", "DENIED_RANGE"),
                Arguments.of("http://127.0.1/", "DENIED_RANGE"),
                Arguments.of("http://127.0.0.1./", "DENIED_RANGE"),
                Arguments.of("http://localhost/", "DENIED_RANGE"),
                Arguments.of("http://LOCALHOST:9000/", "DENIED_RANGE"),
                Arguments.of("http://[::1]/", "DENIED_RANGE"),
                Arguments.of("http://[0:0:0:0:0:0:0:1]/", "DENIED_RANGE"),
                // unspecified / "this network"
                Arguments.of("http://0.0.0.0/", "DENIED_RANGE"),
                Arguments.of("http://0/", "DENIED_RANGE"),
                Arguments.of("http://[::]/", "DENIED_RANGE"),
                // IPv4 embedded in IPv6
                Arguments.of("http://[::ffff:127.0.0.1]/", "DENIED_RANGE"),
                Arguments.of("http://[::ffff:7f00:1]/", "DENIED_RANGE"),
                Arguments.of("http://[::ffff:169.254.169.254]/", "DENIED_RANGE"),
                Arguments.of("http://[::127.0.0.1]/", "DENIED_RANGE"),
                Arguments.of("http://[64:ff9b::7f00:1]/", "DENIED_RANGE"),
                Arguments.of("http://[64:ff9b::a9fe:a9fe]/", "DENIED_RANGE"),
                Arguments.of("http://[2002:7f00:1::]/", "DENIED_RANGE"),
                Arguments.of("http://[2002:a00:1::1]/", "DENIED_RANGE"),
                Arguments.of("http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "DENIED_RANGE"),
                // cloud metadata and link-local
                Arguments.of("http://169.254.169.254/latest/meta-data/", "DENIED_RANGE"),
                Arguments.of("http://0xa9fea9fe/", "DENIED_RANGE"),
                Arguments.of("http://[fd00:ec2::254]/", "DENIED_RANGE"),
                Arguments.of("http://[fe80::1]/", "DENIED_RANGE"),
                // private, shared, documentation, benchmarking, multicast, reserved
                Arguments.of("http://10.0.0.1/", "DENIED_RANGE"),
                Arguments.of("http://172.16.0.1/", "DENIED_RANGE"),
                Arguments.of("http://172.31.255.255/", "DENIED_RANGE"),
                Arguments.of("http://192.168.1.1/", "DENIED_RANGE"),
                Arguments.of("http://100.64.0.1/", "DENIED_RANGE"),
                Arguments.of("http://100.127.255.254/", "DENIED_RANGE"),
                Arguments.of("http://192.0.0.8/", "DENIED_RANGE"),
                Arguments.of("http://192.0.2.10/", "DENIED_RANGE"),
                Arguments.of("http://198.18.0.1/", "DENIED_RANGE"),
                Arguments.of("http://198.51.100.7/", "DENIED_RANGE"),
                Arguments.of("http://203.0.113.10/", "DENIED_RANGE"),
                Arguments.of("http://224.0.0.1/", "DENIED_RANGE"),
                Arguments.of("http://240.0.0.1/", "DENIED_RANGE"),
                Arguments.of("http://255.255.255.255/", "DENIED_RANGE"),
                Arguments.of("http://[fc00::1]/", "DENIED_RANGE"),
                Arguments.of("http://[fd12:3456::1]/", "DENIED_RANGE"),
                Arguments.of("http://[ff02::1]/", "DENIED_RANGE"),
                Arguments.of("http://[2001:db8::1]/", "DENIED_RANGE"),
                Arguments.of("https://10.1.2.3:8443/", "DENIED_RANGE"),
                // newer special-purpose ranges, and the forms that embed IPv4 in them
                Arguments.of("http://[64:ff9b:1::1]/", "DENIED_RANGE"),
                Arguments.of("http://[64:ff9b:1::7f00:1]/", "DENIED_RANGE"),
                Arguments.of("http://[64:ff9b:1:ffff::5db8:d70e]/", "DENIED_RANGE"),
                Arguments.of("http://[::ffff:0:7f00:1]:9999/", "DENIED_RANGE"),
                Arguments.of("http://[::ffff:0:127.0.0.1]/", "DENIED_RANGE"),
                Arguments.of("http://[::ffff:0:5db8:d70e]/", "DENIED_RANGE"),
                Arguments.of("http://[fec0::1]/", "DENIED_RANGE"),
                Arguments.of("http://[feff:ffff::1]/", "DENIED_RANGE"),
                Arguments.of("http://[100::1]/", "DENIED_RANGE"),
                Arguments.of("http://[100::ffff:ffff:ffff:ffff]/", "DENIED_RANGE"),
                Arguments.of("http://[2001:2::1]/", "DENIED_RANGE"),
                Arguments.of("http://[2001:2:0:ffff::1]/", "DENIED_RANGE"),
                Arguments.of("http://[2001:10::1]/", "DENIED_RANGE"),
                Arguments.of("http://[2001:1f:ffff::1]/", "DENIED_RANGE"),
                Arguments.of("http://[2001:20::1]/", "DENIED_RANGE"),
                Arguments.of("http://[2001:2f::1]/", "DENIED_RANGE"),
                Arguments.of("http://[3fff::1]/", "DENIED_RANGE"),
                Arguments.of("http://[3fff:fff::1]/", "DENIED_RANGE"),
                Arguments.of("http://[5f00::1]/", "DENIED_RANGE"),
                Arguments.of("http://[5f00:ffff::1]/", "DENIED_RANGE"),
                Arguments.of("http://192.88.99.1/", "DENIED_RANGE"),
                Arguments.of("http://192.88.99.255/", "DENIED_RANGE"),
                Arguments.of("http://168.63.129.16/", "DENIED_RANGE"),
                Arguments.of("http://0xa83f8110/", "DENIED_RANGE"),
                Arguments.of("http://[2002:a83f:8110::]/", "DENIED_RANGE"),
                Arguments.of("http://[64:ff9b::a83f:8110]/", "DENIED_RANGE"));
    }

    /** Schemes, user info, malformed hosts and ports, names that do not resolve. */
    private static Stream<Arguments> deniedForms() {
        return Stream.of(
                // schemes
                Arguments.of("file:///etc/passwd", "SCHEME_NOT_ALLOWED"),
                Arguments.of("gopher://127.0.0.1:25/_HELO", "SCHEME_NOT_ALLOWED"),
                Arguments.of("ftp://127.0.0.1/", "SCHEME_NOT_ALLOWED"),
                Arguments.of("dict://127.0.0.1:11211/stat", "SCHEME_NOT_ALLOWED"),
                Arguments.of("jar:http://example.com!/x", "SCHEME_NOT_ALLOWED"),
                Arguments.of("//example.com/no-scheme", "SCHEME_NOT_ALLOWED"),
                // user info tricks
                Arguments.of("http://evil@127.0.0.1/", "USERINFO_NOT_ALLOWED"),
                Arguments.of("http://example.com@127.0.0.1/", "USERINFO_NOT_ALLOWED"),
                Arguments.of("http://user:pass@example.com/", "USERINFO_NOT_ALLOWED"),
                // malformed hosts
                Arguments.of("http://256.0.0.1/", "INVALID_HOST"),
                Arguments.of("http://0x1ffffffff/", "INVALID_HOST"),
                Arguments.of("http://127.0.0.1:0/", "INVALID_PORT"),
                Arguments.of("http:///path-only", "INVALID_HOST"),
                Arguments.of("not a url", "INVALID_URL"),
                Arguments.of("http://does-not-exist.invalid/", "UNRESOLVABLE"));
    }
}
