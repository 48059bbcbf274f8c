package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SsrfGuardTest {

    /** Local names only: the guard must never need the network to refuse. */
    private static final Map<String, String[]> HOSTS = Map.of(
            "localhost", new String[] {"127.0.0.1", "::1"},
            "rebind.test", new String[] {"93.184.215.14", "127.0.0.1"},
            "public.test", new String[] {"93.184.215.14"},
            "mapped.test", new String[] {"::ffff:10.0.0.1"});

    private final AtomicInteger lookups = new AtomicInteger();
    private final SsrfGuard guard = guard(List.of());

    private final SsrfGuard.NameLookup hosts = host -> {
        lookups.incrementAndGet();
        String[] addresses = HOSTS.get(host);
        if (addresses == null) {
            throw new UnknownHostException(host);
        }
        InetAddress[] out = new InetAddress[addresses.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = InetAddress.getByName(addresses[i]);
        }
        return out;
    };

    private static SsrfGuard guard(List<AllowedRange> allowed) {
        return new SsrfGuard(allowed, List.of(), new OwnAddresses());
    }

    private static List<AllowedRange> ranges(String... entries) {
        return Arrays.stream(entries).map(AllowedRange::parse).toList();
    }

    private List<InetAddress> vet(SsrfGuard guard, String url) {
        SsrfGuard.VettedUrl vetted = guard.vetUrl(url);
        return guard.resolveAndVet(vetted.host(), vetted.port(), hosts);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("dev.egress.border.ssrf.SsrfTargets#denied")
    void refusesTarget(String url, String reason) {
        assertThatThrownBy(() -> vet(guard, url))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class,
                        e -> assertThat(e.reason().name()).isEqualTo(reason));
    }

    @Test
    void refusesANameWhenAnyOfItsAddressesIsDenied() {
        assertThatThrownBy(() -> guard.resolveAndVet("rebind.test", 80, hosts))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class, e -> assertThat(e.reason()).isEqualTo(DenialReason.DENIED_RANGE));
    }

    @Test
    void judgesAMappedAddressByItsEmbeddedIpv4Address() {
        assertThatThrownBy(() -> guard.resolveAndVet("mapped.test", 80, hosts))
                .isInstanceOf(TargetDeniedException.class);
    }

    @Test
    void neverLooksUpNumericHosts() {
        assertThatThrownBy(() -> guard.resolveAndVet("0x7f000001", 80, hosts))
                .isInstanceOf(TargetDeniedException.class);
        assertThatThrownBy(() -> guard.resolveAndVet("0177.0.0.1", 80, hosts))
                .isInstanceOf(TargetDeniedException.class);
        assertThat(lookups).hasValue(0);
    }

    @Test
    void rewritesNumericHostsToTheirCanonicalLiteral() {
        SsrfGuard open = guard(ranges("127.0.0.0/8:81", "127.0.0.0/8:80"));
        assertThat(open.vetUrl("http://0177.0.0.1:81/a?b=c#frag").uri()).hasToString("http://127.0.0.1:81/a?b=c");
        assertThat(open.vetUrl("http://2130706433/").uri()).hasToString("http://127.0.0.1/");
    }

    @Test
    void passesAPublicNameAndKeepsItForHostAndSni() {
        SsrfGuard.VettedUrl vetted = guard.vetUrl("https://Public.Test/hook");
        assertThat(vetted.uri()).hasToString("https://public.test/hook");
        assertThat(vetted.port()).isEqualTo(443);
        assertThat(guard.resolveAndVet(vetted.host(), vetted.port(), hosts))
                .extracting(InetAddress::getHostAddress)
                .containsExactly("93.184.215.14");
    }

    @ParameterizedTest(name = "{0} allowed by {1}")
    @CsvSource({
        "http://127.0.0.1:8080/, 127.0.0.1/32:8080",
        "http://0x7f000001/, 127.0.0.1/32:80",
        "http://localhost/, '127.0.0.1/32:80,[::1]:80'",
        "http://127.0.0.1:9999/, 127.0.0.1:9999",
        "http://127.0.0.7:8500/, 127.0.0.0/8:8000-8999",
        "http://10.20.30.40/, 10.0.0.0/8",
        "http://10.20.30.40:8123/, 10.0.0.0/8:8000-8999",
        "http://[fd12::5]/, fd00::/8",
        "http://[fd12::5]:443/, fd00::/8:443",
        "http://[::ffff:10.1.1.1]/, 10.0.0.0/8"
    })
    void passesDeniedAddressesOnlyWhenExplicitlyAllowed(String url, String entries) {
        SsrfGuard open = guard(ranges(entries.split(",")));
        assertThat(vet(open, url)).isNotEmpty();
    }

    @ParameterizedTest(name = "{0} with {1} -> {2}")
    @CsvSource({
        // Loopback is this host: an allowed range without ports does not reopen it, on any port.
        "http://127.0.0.1:8080/, 127.0.0.1/32, OWN_ADDRESS",
        "http://127.0.0.1:2136/, 127.0.0.0/8, OWN_ADDRESS",
        "http://localhost:8181/, 127.0.0.1/32, OWN_ADDRESS",
        "http://[::1]:8182/, ::1/128, OWN_ADDRESS",
        "http://0.0.0.0:8080/, 0.0.0.0/8, OWN_ADDRESS",
        // With ports, only those ports.
        "http://127.0.0.1:8080/, 127.0.0.1/32:9999, DENIED_RANGE",
        "http://127.0.0.1:8182/, 127.0.0.1/32:9999, DENIED_RANGE",
        "http://127.0.0.1:9000/, 127.0.0.1/32:8000-8999, DENIED_RANGE",
        "http://10.1.2.3:9000/, 10.0.0.0/8:8000-8999, DENIED_RANGE",
        "http://[fd12::5]:80/, fd00::/8:443, DENIED_RANGE",
        // An IPv4 entry never reopens an address embedded in a translation form.
        "http://[::ffff:0:7f00:1]:9999/, 127.0.0.1/32:9999, DENIED_RANGE",
        "http://[64:ff9b::a00:1]/, 10.0.0.0/8, DENIED_RANGE",
        "http://[2002:a00:1::1]/, 10.0.0.0/8, DENIED_RANGE",
        // Allowing a translation prefix does not reopen what it embeds.
        "http://[64:ff9b:1::7f00:1]/, 64:ff9b:1::/48, DENIED_RANGE",
        "http://[::ffff:0:a9fe:a9fe]/, ::ffff:0:0:0/96, DENIED_RANGE"
    })
    void refusesWhatAnAllowedRangeDoesNotReallyReopen(String url, String entries, String reason) {
        SsrfGuard open = guard(ranges(entries.split(";")));
        assertThatThrownBy(() -> vet(open, url))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class,
                        e -> assertThat(e.reason().name()).isEqualTo(reason));
    }

    @Test
    void allowedRangesNeverExemptTheBordersOwnListeningSocket() {
        OwnAddresses own = new OwnAddresses();
        own.addListeningPort(8181);
        SsrfGuard open = new SsrfGuard(ranges("127.0.0.0/8:8000-8999"), List.of(), own);
        assertThat(open.vetUrl("http://127.0.0.1:8182/").host()).isEqualTo("127.0.0.1");
        assertThatThrownBy(() -> open.vetUrl("http://127.0.0.1:8181/"))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class, e -> assertThat(e.reason()).isEqualTo(DenialReason.OWN_ADDRESS));
    }

    @Test
    void refusesEveryAddressOfThisHostsInterfacesOnEveryPortEvenInsideAnAllowedRange() throws Exception {
        List<InetAddress> local = new ArrayList<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (!a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    local.add(a);
                }
            }
        }
        Assumptions.assumeFalse(local.isEmpty(), "this machine has no non-loopback interface address");
        // Vetting only: nothing connects anywhere.
        SsrfGuard open = guard(ranges("0.0.0.0/0", "::/0"));
        for (InetAddress address : local) {
            for (int port : new int[] {22, 80, 443, 10250, 30080}) {
                assertThatThrownBy(() -> open.vetAddress(address, port))
                        .as("%s:%d", address, port)
                        .isInstanceOfSatisfying(
                                TargetDeniedException.class,
                                e -> assertThat(e.reason()).isEqualTo(DenialReason.OWN_ADDRESS));
            }
            String v = address.getHostAddress().replaceAll("%.*$", "");
            String single = address instanceof Inet4Address ? v + "/32:10250" : v + "/128:10250";
            SsrfGuard onePort = guard(ranges(single));
            onePort.vetAddress(address, 10250);
            assertThatThrownBy(() -> onePort.vetAddress(address, 10255)).isInstanceOf(TargetDeniedException.class);
        }
    }

    @ParameterizedTest(name = "{0} with denied {1}")
    @CsvSource({
        "http://10.96.0.1/, 10.96.0.0/12",
        "http://10.96.0.1:8443/, 10.96.0.0/12",
        "http://[::ffff:10.96.0.1]/, 10.96.0.0/12",
        "http://[64:ff9b::a60:1]/, 10.96.0.0/12",
        "http://[fd00:10:96::1]/, fd00:10::/32",
        "http://93.184.215.14/, 93.184.215.0/24",
        "http://public.test/, 93.184.215.14/32"
    })
    void operatorDeniedRangesCannotBeReopenedByAnyAllowedRange(String url, String denied) {
        SsrfGuard guard = new SsrfGuard(
                ranges("10.0.0.0/8", "fd00::/8", "0.0.0.0/0:1-65535", "64:ff9b::/96"),
                List.of(Cidr.parse(denied)),
                new OwnAddresses());
        assertThatThrownBy(() -> vet(guard, url))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class,
                        e -> assertThat(e.reason()).isEqualTo(DenialReason.OPERATOR_DENIED));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "127.1",
                "0x7f.0.0.1",
                "0177.0.0.1",
                "010.0.0.0/8",
                "2130706433",
                "10.0.0.0/08",
                "10.0.0.1/8",
                "1.2.3.4/33",
                "10.*.0.0",
                "*",
                "0.0.0.0/0/0",
                "10.0.0.0/255.0.0.0",
                "fe80::1%eth0",
                "localhost",
                "",
                "10.0.0.0/8:0",
                "10.0.0.0/8:70000",
                "10.0.0.0/8:9000-8000",
                "10.0.0.0/8:http",
                "[::1",
                "[::1]x"
            })
    void refusesAmbiguousOrMalformedConfigurationEntries(String entry) {
        assertThatThrownBy(() -> AllowedRange.parse(entry)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "10.0.0.0/8, 10.0.0.0/8",
        "127.0.0.1/32:9999, 127.0.0.1/32:9999",
        "127.0.0.1:9999, 127.0.0.1/32:9999",
        "10.0.0.0/8:8000-8999, 10.0.0.0/8:8000-8999",
        "fd00::/8:443, fd00::/8:443",
        "[::1]:9999, ::1/128:9999",
        "::1, ::1/128"
    })
    void parsesAllowedRangesWithOptionalPorts(String entry, String shown) {
        assertThat(AllowedRange.parse(entry)).hasToString(shown);
    }
}
