package dev.egress.border.ssrf;

import static org.assertj.core.api.Assertions.assertThat;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.ipv4.IPv4Address;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DenyListTest {

    private static IPAddress ip(String text) {
        return new IPAddressString(text).getAddress();
    }

    @ParameterizedTest(name = "{0} embeds {1}")
    @CsvSource({
        "::ffff:1.2.3.4, 1.2.3.4",
        "64:ff9b::102:304, 1.2.3.4",
        "::ffff:0:102:304, 1.2.3.4",
        "::102:304, 1.2.3.4",
        "64:ff9b:1::102:304, 1.2.3.4",
        "2002:102:304::1, 1.2.3.4"
    })
    void readsTheIpv4AddressOfEveryTranslationForm(String address, String embedded) {
        assertThat(DenyList.embeddedIpv4(ip(address)))
                .extracting(IPv4Address::toCanonicalString)
                .containsExactly(embedded);
    }

    @Test
    void readsBothTeredoAddresses() {
        assertThat(DenyList.embeddedIpv4(ip("2001:0:4136:e378:8000:63bf:80ff:fffe")))
                .extracting(IPv4Address::toCanonicalString)
                .containsExactly("127.0.0.1", "65.54.227.120");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1.2.3.4", "::1", "::", "2606:4700::1", "fd00::1"})
    void findsNothingEmbeddedInOtherAddresses(String address) {
        assertThat(DenyList.embeddedIpv4(ip(address))).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "10.0.0.0, 10.0.0.0/8",
        "10.255.255.255, 10.0.0.0/8",
        "0.0.0.0, 0.0.0.0/8",
        "255.255.255.255, 240.0.0.0/4",
        "168.63.129.16, 168.63.129.16/32",
        "100.64.0.1, 100.64.0.0/10",
        "::, ::/128",
        "::1, ::1/128",
        "fc00::1, fc00::/7",
        "fe80::1, fe80::/10",
        "2001:db8::1, 2001:db8::/32",
        "5f00::1, 5f00::/16"
    })
    void namesTheFirstRangeDenyingTheAddress(String address, String range) {
        assertThat(DenyList.denyingRange(ip(address))).hasToString(range);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "9.255.255.255",
                "11.0.0.0",
                "100.128.0.0",
                "168.63.129.17",
                "93.184.215.14",
                "2606:4700::1",
                "2001:db9::1"
            })
    void deniesNothingElse(String address) {
        assertThat(DenyList.denyingRange(ip(address))).isNull();
    }

    @Test
    void judgesAnIpv4AddressOnlyByIpv4RangesAndAnIpv6AddressOnlyByIpv6Ranges() {
        assertThat(DenyList.denyingRange(ip("0.0.0.1"))).hasToString("0.0.0.0/8");
        assertThat(DenyList.IPV4).allMatch(r -> r.block().isIPv4());
        assertThat(DenyList.IPV6).allMatch(r -> r.block().isIPv6());
    }
}
