package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.EgressIp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostedIpsTest {

    @Test
    void anAddressWithoutMappingIsBoundAsItIsSeen() {
        HostedIps ips = HostedIps.parse(List.of("127.0.0.2", " 2001:DB8::7 "));

        assertThat(ips.publicIps()).containsExactly(EgressIp.of("127.0.0.2"), EgressIp.of("2001:db8::7"));
        assertThat(ips.bindOf(EgressIp.of("127.0.0.2"))).contains(EgressIp.of("127.0.0.2"));
    }

    @Test
    void aBindEqualsPublicEntryBindsThePrivateAddressAndIsKnownByThePublicOne() {
        HostedIps ips = HostedIps.parse(List.of("10.0.1.5=203.0.113.10", "10.0.1.6 = 203.0.113.11", "203.0.113.12"));

        assertThat(ips.publicIps())
                .extracting(EgressIp::value)
                .containsExactly("203.0.113.10", "203.0.113.11", "203.0.113.12");
        assertThat(ips.bindByPublic())
                .containsExactly(
                        Map.entry(EgressIp.of("203.0.113.10"), EgressIp.of("10.0.1.5")),
                        Map.entry(EgressIp.of("203.0.113.11"), EgressIp.of("10.0.1.6")),
                        Map.entry(EgressIp.of("203.0.113.12"), EgressIp.of("203.0.113.12")));
        assertThat(ips.bindOf(EgressIp.of("10.0.1.5")))
                .as("a bind address is not a hosted IP's identity")
                .isEmpty();
        assertThat(ips).hasToString("[10.0.1.5=203.0.113.10, 10.0.1.6=203.0.113.11, 203.0.113.12]");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "10.0.1.5=          | egress.border.ips: '10.0.1.5=': missing public address",
                "=203.0.113.10      | egress.border.ips: '=203.0.113.10': missing bind address",
                "10.0.1.5=203.0.113.010 | egress.border.ips: '10.0.1.5=203.0.113.010': public address '203.0.113.010' is not an IPv4 or IPv6 literal",
                "10.0.1.5=1.2.3.4=5.6.7.8 | egress.border.ips: '10.0.1.5=1.2.3.4=5.6.7.8': public address '1.2.3.4=5.6.7.8'",
                "host.example=203.0.113.10 | egress.border.ips: 'host.example=203.0.113.10': bind address 'host.example'"
            })
    void rejectsMalformedEntriesNamingTheEntry(String entry, String message) {
        assertThatThrownBy(() -> HostedIps.parse(List.of("127.0.0.2", entry)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void rejectsAPublicAddressListedTwiceEvenWithDifferentBindAddresses() {
        assertThatThrownBy(() -> HostedIps.parse(List.of("10.0.1.5=203.0.113.10", "10.0.1.6=203.0.113.10")))
                .hasMessage("egress.border.ips: '10.0.1.6=203.0.113.10': public address 203.0.113.10 is listed twice"
                        + " (expected: each dedicated IP once)");
        assertThatThrownBy(() -> HostedIps.parse(List.of("127.0.0.2", "127.0.0.2")))
                .hasMessageContaining("public address 127.0.0.2 is listed twice");
    }

    @Test
    void rejectsOneBindAddressServingTwoPublicAddresses() {
        assertThatThrownBy(() -> HostedIps.parse(List.of("10.0.1.5=203.0.113.10", "10.0.1.5=203.0.113.11")))
                .hasMessageContaining("'10.0.1.5=203.0.113.11': bind address 10.0.1.5 already serves 203.0.113.10");
        assertThatThrownBy(() -> HostedIps.parse(List.of("127.0.0.2", "127.0.0.2=203.0.113.11")))
                .hasMessageContaining("bind address 127.0.0.2 already serves 127.0.0.2");
    }

    @Test
    void rejectsAListWithoutEntries() {
        assertThatThrownBy(() -> HostedIps.parse(List.of(" ", "")))
                .hasMessageStartingWith("egress.border.ips: no entries");
    }
}
