package dev.egress.discovery.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EgressIpTest {

    @ParameterizedTest
    @CsvSource({
        "203.0.113.10, 203.0.113.10",
        "0.0.0.0, 0.0.0.0",
        "255.255.255.255, 255.255.255.255",
        "2001:DB8::1, 2001:db8::1",
        "2001:db8:0:0:0:0:0:1, 2001:db8::1",
        "2001:0db8:0000:0000:0000:0000:0000:0001, 2001:db8::1",
        "0:0:0:0:0:0:0:1, ::1",
        "0:0:0:0:0:0:0:0, ::",
        "1:0:0:0:0:0:0:0, 1::",
        // RFC 5952 §4.2.2: a single zero group is not compressed
        "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1",
        // RFC 5952 §4.2.1/4.2.3: the longest run is compressed, the first one on a tie
        "2001:0:0:1:0:0:0:1, 2001:0:0:1::1",
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",
        "1:2:3:4:5:6:7::, 1:2:3:4:5:6:7:0",
        "::1.2.3.4, ::102:304",
        "1:2:3:4:5:6:1.2.3.4, 1:2:3:4:5:6:102:304",
        // IPv4-mapped addresses, in any spelling, are the IPv4 address: one address, one key
        "::FFFF:192.0.2.1, 192.0.2.1",
        "::ffff:127.0.0.3, 127.0.0.3",
        "0:0:0:0:0:ffff:c000:0201, 192.0.2.1",
        "::ffff:c000:201, 192.0.2.1",
        "0000:0000:0000:0000:0000:FFFF:7f00:0003, 127.0.0.3",
        // only ::ffff:0:0/96 is mapped: its neighbours stay IPv6
        "::fffe:c000:201, ::fffe:c000:201",
        "::1:ffff:c000:201, ::1:ffff:c000:201",
        "1::ffff:c000:201, 1::ffff:c000:201",
        "::ffff:0:c000:201, ::ffff:0:c000:201",
        // the longest literal there is (45 characters) is still accepted
        "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255, ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    })
    void canonicalisesLiterals(String literal, String canonical) {
        assertThat(EgressIp.of(literal).value()).isEqualTo(canonical);
    }

    @Test
    void anIpv4MappedAddressIsTheIpv4AddressInEveryRespect() {
        EgressIp mapped = EgressIp.of("::ffff:127.0.0.3");
        assertThat(mapped)
                .isEqualTo(EgressIp.of("127.0.0.3"))
                .hasSameHashCodeAs(EgressIp.of("127.0.0.3"))
                .isEqualByComparingTo(EgressIp.of("127.0.0.3"))
                .hasToString("127.0.0.3");
        assertThat(mapped.isIpv6()).isFalse();
        assertThat(mapped.toInetAddress()).isInstanceOf(Inet4Address.class);
        assertThatIllegalArgumentException().isThrownBy(() -> new EgressIp("::ffff:127.0.0.3"));
    }

    @Test
    void equalAddressesInDifferentSpellingsAreOneKey() {
        assertThat(EgressIp.of("2001:DB8::1"))
                .isEqualTo(EgressIp.of("2001:db8:0:0:0:0:0:1"))
                .hasSameHashCodeAs(EgressIp.of("2001:db8::0:1"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "127.1",
                "0x7f.0.0.1",
                "010.0.0.1",
                "127.0.0.01",
                "0177.0.0.1",
                "2130706433",
                "256.0.0.1",
                "1.2.3",
                "1.2.3.4.5",
                "1.2.3.",
                ".1.2.3",
                " 1.2.3.4",
                "1.2.3.4 ",
                "١.٢.٣.٤",
                "localhost",
                "example.com",
                "border-a",
                "",
                "::ffff:010.0.0.1",
                "::ffff:127.1",
                "::ffff:0x7f.0.0.1",
                "00001::",
                "1::2::3",
                ":1::",
                ":::",
                "1:2:3:4:5:6:7:8:9",
                "1:2:3:4:5:6:7",
                "1:2:3:4:5:6:7:8::",
                "1.2.3.4::",
                "1:2:3:4:5:6:7:1.2.3.4",
                "[::1]",
                "fe80::1%eth0",
                "g::1",
                ".::1",
                "::ｆ",
                "2001:db8::1/64",
                "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.2550",
                // "::" stands for at least one zero group, so it cannot sit beside eight explicit ones
                "1:2:3:4::5:6:7:8",
                "::1:2:3:4:5:6:7:8",
                "1::2:3:4:5:6:7:8",
            })
    void rejectsAnythingButAStrictLiteral(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> EgressIp.of(text)).withMessageStartingWith("ip: ");
    }

    @Test
    void rejectsNull() {
        assertThatIllegalArgumentException().isThrownBy(() -> EgressIp.of(null));
    }

    @Test
    void constructorRequiresTheCanonicalForm() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new EgressIp("2001:DB8::1"))
                .withMessageContaining("canonical");
        assertThat(new EgressIp("2001:db8::1").value()).isEqualTo("2001:db8::1");
    }

    @Test
    void convertsToTheAddressWithoutLookup() {
        assertThat(EgressIp.of("127.0.0.2").toInetAddress())
                .isInstanceOf(Inet4Address.class)
                .extracting(a -> a.getHostAddress())
                .isEqualTo("127.0.0.2");
        assertThat(EgressIp.of("2001:db8::1").toInetAddress())
                .isInstanceOf(Inet6Address.class)
                .extracting(a -> a.getHostAddress())
                .isEqualTo("2001:db8:0:0:0:0:0:1");
    }

    @ParameterizedTest
    @CsvSource({
        // address, unspecified, multicast, loopback
        "0.0.0.0, true, false, false",
        "::, true, false, false",
        "::ffff:0.0.0.0, true, false, false",
        "224.0.0.1, false, true, false",
        "239.255.255.255, false, true, false",
        "ff02::1, false, true, false",
        "::ffff:224.0.0.1, false, true, false",
        "127.0.0.1, false, false, true",
        "127.255.255.254, false, false, true",
        "::1, false, false, true",
        "::ffff:127.0.0.3, false, false, true",
        "0.0.0.1, false, false, false",
        "223.255.255.255, false, false, false",
        "240.0.0.1, false, false, false",
        "128.0.0.1, false, false, false",
        "203.0.113.10, false, false, false",
        "::2, false, false, false",
        "2001:db8::1, false, false, false",
    })
    void classifiesTheAddressesNoSocketMayUseAsADedicatedIp(
            String literal, boolean unspecified, boolean multicast, boolean loopback) {
        EgressIp ip = EgressIp.of(literal);
        assertThat(ip.isUnspecified()).as("unspecified").isEqualTo(unspecified);
        assertThat(ip.isMulticast()).as("multicast").isEqualTo(multicast);
        assertThat(ip.isLoopback()).as("loopback").isEqualTo(loopback);
    }

    @Test
    void knowsItsFamily() {
        assertThat(EgressIp.of("10.0.0.1").isIpv6()).isFalse();
        assertThat(EgressIp.of("::1").isIpv6()).isTrue();
    }

    @Test
    void namesTheRejectedTextWholeUpToTheLongestLiteralAndCutsLongerText() {
        String longest = "x".repeat(45);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EgressIp.of(longest))
                .withMessage("ip: '%s' (expected: an IPv4 or IPv6 literal)", longest);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EgressIp.of(longest + "yz"))
                .withMessage("ip: '%s...' (expected: an IPv4 or IPv6 literal)", longest);
    }

    @Test
    void sortsByCanonicalText() {
        assertThat(Stream.of("127.0.0.3", "10.0.0.1", "2001:db8::1", "127.0.0.2")
                        .map(EgressIp::of)
                        .sorted())
                .extracting(EgressIp::value)
                .containsExactly("10.0.0.1", "127.0.0.2", "127.0.0.3", "2001:db8::1");
        assertThat(EgressIp.of("127.0.0.2")).isEqualByComparingTo(EgressIp.of("127.0.0.2"));
    }
}
