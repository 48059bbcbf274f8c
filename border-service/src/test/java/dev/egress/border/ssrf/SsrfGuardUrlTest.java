package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link SsrfGuard}'s lexical checks and the edges of its rules; vetting only, nothing connects. */
class SsrfGuardUrlTest {

    private final SsrfGuard guard = new SsrfGuard(List.of(), List.of(), new OwnAddresses());

    private static SsrfGuard allowing(String... entries) {
        return new SsrfGuard(Arrays.stream(entries).map(AllowedRange::parse).toList(), List.of(), new OwnAddresses());
    }

    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    private static void refused(Runnable vet, DenialReason reason) {
        assertThatThrownBy(vet::run)
                .isInstanceOfSatisfying(
                        TargetDeniedException.class, e -> assertThat(e.reason()).isEqualTo(reason));
    }

    @ParameterizedTest(name = "''{0}''")
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "http://a b/", "http://[::1/"})
    void refusesAMissingOrUnparseableUrl(String url) {
        refused(() -> guard.vetUrl(url), DenialReason.INVALID_URL);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "ftp://public.test/",
                "file:///etc/passwd",
                "//public.test/",
                "gopher://public.test/",
                "httpx://public.test/"
            })
    void refusesSchemesOtherThanHttpAndHttps(String url) {
        refused(() -> guard.vetUrl(url), DenialReason.SCHEME_NOT_ALLOWED);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "http://user@public.test/",
                "http://user:pw@public.test/",
                "http://a@0177.0.0.1/",
                "http://@public.test/"
            })
    void refusesUserInfo(String url) {
        refused(() -> guard.vetUrl(url), DenialReason.USERINFO_NOT_ALLOWED);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "http://public.test:0/",
                "http://public.test:65536/",
                "http://2130706433:0/",
                "http://2130706433:65536/",
                "http://0177.0.0.1:x/",
                "http://127.1:0/",
                "http://127.1:65536/",
                "http://127.1:x/",
                "http://127.1:/"
            })
    void refusesPortsOutsideOneTo65535(String url) {
        refused(() -> guard.vetUrl(url), DenialReason.INVALID_PORT);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "http://public.test:1/, 1",
        "http://public.test:65535/, 65535",
        "http://public.test/, 80",
        "HTTPS://public.test/, 443",
        "https://public.test:80/, 80"
    })
    void usesTheExplicitPortOrTheSchemesDefault(String url, int port) {
        assertThat(guard.vetUrl(url).port()).isEqualTo(port);
    }

    @Test
    void keepsAnExplicitPortInTheUrlAndLeavesADefaultOneOut() {
        SsrfGuard open = allowing("127.0.0.0/8:1-65535");
        assertThat(open.vetUrl("http://public.test:80/").uri()).hasToString("http://public.test:80/");
        assertThat(open.vetUrl("http://public.test").uri()).hasToString("http://public.test/");
        assertThat(open.vetUrl("https://public.test/a/b?c=d#e").uri()).hasToString("https://public.test/a/b?c=d");
        assertThat(open.vetUrl("http://2130706433:1/x").uri()).hasToString("http://127.0.0.1:1/x");
        assertThat(open.vetUrl("http://2130706433:65535").uri()).hasToString("http://127.0.0.1:65535/");
        assertThat(open.vetUrl("http://0x7f000001:8080/").port()).isEqualTo(8080);
        // java.net.URI keeps hosts such as 127.1 as a "registry" authority: the guard splits off the port itself.
        assertThat(open.vetUrl("http://127.1:81/a").uri()).hasToString("http://127.0.0.1:81/a");
        assertThat(open.vetUrl("http://127.1:65535").uri()).hasToString("http://127.0.0.1:65535/");
        assertThat(open.vetUrl("http://127.1:1/").port()).isEqualTo(1);
    }

    @Test
    void aNameIsKeptAsTheHostToResolveAndHasNoLiteral() {
        SsrfGuard.VettedUrl vetted = guard.vetUrl("https://Hooks.Example.test./in");
        assertThat(vetted.host()).isEqualTo("hooks.example.test.");
        assertThat(vetted.literal()).isNull();
    }

    @Test
    void acceptsNamesUpTo253Characters() {
        String labels = "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + ".";
        String longest = labels + "d".repeat(61);
        assertThat(longest).hasSize(253);
        assertThat(guard.vetUrl("http://" + longest + "/").host()).isEqualTo(longest);
        refused(() -> guard.vetUrl("http://" + longest + "d/"), DenialReason.INVALID_HOST);
        refused(() -> guard.vetUrl("http://" + "a".repeat(64) + ".test/"), DenialReason.INVALID_HOST);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "http://1.2.3.256/",
                "http://4294967296/",
                "http://-bad.test/",
                "http://a..b/",
                "http://:80/",
                "http://[zz::1]/",
                "http://[1.2.3.4]/"
            })
    void refusesInvalidHosts(String url) {
        assertThatThrownBy(() -> guard.vetUrl(url))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class,
                        e -> assertThat(e.reason()).isIn(DenialReason.INVALID_HOST, DenialReason.INVALID_URL));
    }

    @Test
    void rewritesIpv6LiteralsAndVetsTheMappedFormAsIpv4() throws Exception {
        SsrfGuard open = allowing("fd00::/8", "10.0.0.0/8");
        SsrfGuard.VettedUrl v6 = open.vetUrl("http://[FD12::5]:8080/x");
        assertThat(v6.literal()).isEqualTo(InetAddress.getByName("fd12::5"));
        assertThat(v6.host()).isEqualTo(InetAddress.getByName("fd12::5").getHostAddress());
        assertThat(v6.uri().getHost())
                .isEqualTo("[" + InetAddress.getByName("fd12::5").getHostAddress() + "]");
        assertThat(v6.uri().getPort()).isEqualTo(8080);
        SsrfGuard.VettedUrl mapped = open.vetUrl("http://[::ffff:10.1.1.1]/");
        assertThat(mapped.uri()).hasToString("http://10.1.1.1/");
        assertThat(mapped.host()).isEqualTo("10.1.1.1");
        refused(() -> open.vetUrl("http://[fe80::1%25eth0]/"), DenialReason.DENIED_RANGE);
    }

    @Test
    void findsLiteralsInEveryNotationWithoutLookingNamesUp() throws Exception {
        assertThat(guard.literal("::1")).contains(InetAddress.getByName("::1"));
        assertThat(guard.literal("FE80::1%eth0")).contains(InetAddress.getByName("fe80::1"));
        assertThat(guard.literal("0x7F000001")).contains(InetAddress.getByName("127.0.0.1"));
        assertThat(guard.literal("10.1")).contains(InetAddress.getByName("10.0.0.1"));
        assertThat(guard.literal("public.test")).isEmpty();
        refused(() -> guard.literal("1.2.3.999"), DenialReason.INVALID_HOST);
        refused(() -> guard.literal("::zz"), DenialReason.INVALID_HOST);
        refused(() -> guard.literal(":"), DenialReason.INVALID_HOST);
    }

    @Test
    void aNameWithoutAddressesIsUnresolvable() {
        refused(() -> guard.vetResolved("public.test", 80, null), DenialReason.UNRESOLVABLE);
        refused(() -> guard.vetResolved("public.test", 80, List.of()), DenialReason.UNRESOLVABLE);
        refused(() -> guard.resolveAndVet("public.test", 80, host -> null), DenialReason.UNRESOLVABLE);
        refused(() -> guard.resolveAndVet("public.test", 80, host -> new InetAddress[0]), DenialReason.UNRESOLVABLE);
    }

    @Test
    void looksUpTheLowerCaseNameAndReturnsEveryVettedAddressInOrder() throws Exception {
        List<String> asked = new ArrayList<>();
        InetAddress first = InetAddress.getByName("93.184.215.14");
        InetAddress second = InetAddress.getByName("2606:2800:21f:cb07:6820:80da:af6b:8b2c");
        List<InetAddress> vetted = guard.resolveAndVet("Public.TEST", 443, host -> {
            asked.add(host);
            return new InetAddress[] {first, second};
        });
        assertThat(asked).containsExactly("public.test");
        assertThat(vetted).containsExactly(first, second);
        List<InetAddress> mutable = new ArrayList<>(List.of(first));
        List<InetAddress> copy = guard.vetResolved("public.test", 80, mutable);
        mutable.clear();
        assertThat(copy).containsExactly(first);
    }

    @Test
    void exposesItsRanges() {
        SsrfGuard configured = new SsrfGuard(
                List.of(AllowedRange.parse("10.0.0.0/8:443")), List.of(Cidr.parse("10.96.0.0/12")), new OwnAddresses());
        assertThat(configured.allowed()).containsExactly(AllowedRange.parse("10.0.0.0/8:443"));
        assertThat(configured.denied()).containsExactly(Cidr.parse("10.96.0.0/12"));
    }

    @Test
    void anOperatorDeniedRangeWinsOverTheOwnListenerAndOverAnAllowedRange() throws Exception {
        OwnAddresses own = new OwnAddresses();
        own.addListeningPort(8181);
        SsrfGuard guard = new SsrfGuard(
                List.of(AllowedRange.parse("127.0.0.0/8:8181")), List.of(Cidr.parse("127.0.0.5/32")), own);
        refused(() -> guard.vetAddress(ip("127.0.0.5"), 8181), DenialReason.OPERATOR_DENIED);
        refused(() -> guard.vetAddress(ip("127.0.0.6"), 8181), DenialReason.OWN_ADDRESS);
        refused(() -> guard.vetAddress(ip("::ffff:127.0.0.5"), 80), DenialReason.OPERATOR_DENIED);
        refused(() -> guard.vetAddress(ip("64:ff9b::7f00:5"), 80), DenialReason.OPERATOR_DENIED);
    }

    @Test
    void anAllowedRangeWithoutPortsReopensPrivateSpaceButNotThisHost() throws Exception {
        SsrfGuard open = allowing("10.0.0.0/8", "::/0");
        open.vetAddress(ip("10.9.8.7"), 80);
        open.vetAddress(ip("::ffff:10.9.8.7"), 80);
        refused(() -> open.vetAddress(ip("::1"), 80), DenialReason.OWN_ADDRESS);
        refused(() -> open.vetAddress(ip("64:ff9b::a09:807"), 80), DenialReason.DENIED_RANGE);
        refused(() -> open.vetAddress(ip("172.16.0.1"), 80), DenialReason.DENIED_RANGE);
        open.vetAddress(ip("93.184.215.14"), 80);
    }

    @Test
    void aNodeAddressOutsideTheDenyListIsRefusedAsThisHostAlsoWhenEmbedded() {
        // Under hostNetwork the node's own (public) address is an interface address; vetting only.
        OwnAddresses node =
                new OwnAddresses(() -> Set.of(new inet.ipaddr.IPAddressString("93.184.215.14").getAddress()));
        SsrfGuard onNode = new SsrfGuard(List.of(AllowedRange.parse("64:ff9b::/96")), List.of(), node);
        refused(() -> onNode.vetAddress(ip("93.184.215.14"), 443), DenialReason.OWN_ADDRESS);
        refused(() -> onNode.vetAddress(ip("64:ff9b::5db8:d70e"), 443), DenialReason.OWN_ADDRESS);
        onNode.vetAddress(ip("64:ff9b::5db8:d70f"), 443);
        onNode.vetAddress(ip("93.184.215.15"), 443);
        SsrfGuard reopened = new SsrfGuard(List.of(AllowedRange.parse("93.184.215.14/32:443")), List.of(), node);
        reopened.vetAddress(ip("93.184.215.14"), 443);
        refused(() -> reopened.vetAddress(ip("93.184.215.14"), 80), DenialReason.OWN_ADDRESS);
    }

    @Test
    void judgesAnIpv4MappedIpv6AddressAsItsIpv4Address() throws Exception {
        // A resolver may hand back ::ffff:a.b.c.d as an Inet6Address; the kernel connects to a.b.c.d.
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 9, 8, 7};
        InetAddress v6 = Inet6Address.getByAddress(null, mapped, -1);
        allowing("10.0.0.0/8").vetAddress(v6, 80);
        refused(() -> allowing("::/0").vetAddress(v6, 80), DenialReason.DENIED_RANGE);
        refused(() -> guard.vetAddress(v6, 80), DenialReason.DENIED_RANGE);
    }

    @Test
    void anOperatorDeniedRangeRefusesOnlyWhatItContains() {
        SsrfGuard guard = new SsrfGuard(
                List.of(AllowedRange.parse("64:ff9b::/96")), List.of(Cidr.parse("10.96.0.0/12")), new OwnAddresses());
        guard.vetAddress(ip("64:ff9b::5db8:d70e"), 443);
        guard.vetAddress(ip("93.184.215.14"), 443);
        refused(() -> guard.vetAddress(ip("64:ff9b::a60:1"), 443), DenialReason.OPERATOR_DENIED);
    }
}
