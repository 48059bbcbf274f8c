package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class SsrfGuardTest {

    /** Local names only: the guard must never need the network to refuse. */
    private static final Map<String, String[]> HOSTS = Map.of(
            "localhost", new String[] {"127.0.0.1", "::1"},
            "rebind.test", new String[] {"93.184.215.14", "127.0.0.1"},
            "public.test", new String[] {"93.184.215.14"},
            "mapped.test", new String[] {"::ffff:10.0.0.1"});

    private final AtomicInteger lookups = new AtomicInteger();
    private final SsrfGuard guard = guard(List.of());

    private SsrfGuard guard(List<Cidr> allowed) {
        return new SsrfGuard(allowed, new OwnAddresses(), host -> {
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
        });
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("dev.egress.border.ssrf.SsrfTargets#denied")
    void refusesTarget(String url, String reason) {
        assertThatThrownBy(() -> {
            SsrfGuard.VettedUrl vetted = guard.vetUrl(url);
            guard.resolveAndVet(vetted.host(), vetted.port());
        }).isInstanceOfSatisfying(TargetDeniedException.class, e -> assertThat(e.reason().name()).isEqualTo(reason));
    }

    @Test
    void refusesANameWhenAnyOfItsAddressesIsDenied() {
        assertThatThrownBy(() -> guard.resolveAndVet("rebind.test", 80))
                .isInstanceOfSatisfying(TargetDeniedException.class,
                        e -> assertThat(e.reason()).isEqualTo(DenialReason.DENIED_RANGE));
    }

    @Test
    void judgesAMappedAddressByItsEmbeddedIpv4Address() {
        assertThatThrownBy(() -> guard.resolveAndVet("mapped.test", 80)).isInstanceOf(TargetDeniedException.class);
    }

    @Test
    void neverLooksUpNumericHosts() {
        assertThatThrownBy(() -> guard.resolveAndVet("0x7f000001", 80)).isInstanceOf(TargetDeniedException.class);
        assertThatThrownBy(() -> guard.resolveAndVet("0177.0.0.1", 80)).isInstanceOf(TargetDeniedException.class);
        assertThat(lookups).hasValue(0);
    }

    @Test
    void rewritesNumericHostsToTheirCanonicalLiteral() {
        SsrfGuard open = guard(List.of(Cidr.parse("127.0.0.0/8")));
        assertThat(open.vetUrl("http://0177.0.0.1:81/a?b=c#frag").uri()).hasToString("http://127.0.0.1:81/a?b=c");
        assertThat(open.vetUrl("http://2130706433/").uri()).hasToString("http://127.0.0.1/");
    }

    @Test
    void passesAPublicNameAndKeepsItForHostAndSni() {
        SsrfGuard.VettedUrl vetted = guard.vetUrl("https://Public.Test/hook");
        assertThat(vetted.uri()).hasToString("https://public.test/hook");
        assertThat(vetted.port()).isEqualTo(443);
        assertThat(guard.resolveAndVet(vetted.host(), vetted.port())).extracting(InetAddress::getHostAddress)
                .containsExactly("93.184.215.14");
    }

    @ParameterizedTest(name = "{0} allowed by {1}")
    @CsvSource({
            "http://127.0.0.1:8080/, 127.0.0.1/32",
            "http://0x7f000001/, 127.0.0.1/32",
            "http://localhost/, '127.0.0.1/32,::1/128'",
            "http://10.20.30.40/, 10.0.0.0/8",
            "http://[fd12::5]/, fd00::/8",
            "http://[::ffff:10.1.1.1]/, 10.0.0.0/8"})
    void passesDeniedAddressesOnlyWhenExplicitlyAllowed(String url, String ranges) {
        SsrfGuard open = guard(java.util.Arrays.stream(ranges.split(",")).map(Cidr::parse).toList());
        SsrfGuard.VettedUrl vetted = open.vetUrl(url);
        assertThat(open.resolveAndVet(vetted.host(), vetted.port())).isNotEmpty();
    }

    @Test
    void allowedRangesNeverExemptTheBordersOwnListeningSocket() {
        OwnAddresses own = new OwnAddresses();
        own.addListeningPort(8181);
        SsrfGuard open = new SsrfGuard(List.of(Cidr.parse("127.0.0.0/8")), own, InetAddress::getAllByName);
        assertThat(open.vetUrl("http://127.0.0.1:8182/").host()).isEqualTo("127.0.0.1");
        assertThatThrownBy(() -> open.vetUrl("http://127.0.0.1:8181/"))
                .isInstanceOfSatisfying(TargetDeniedException.class, e -> assertThat(e.reason()).isEqualTo(DenialReason.OWN_ADDRESS));
    }
}
