package dev.egress.border;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.EgressIp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostedIpsTest {

    private static final HostedIps.Loopback LOOPBACK = HostedIps.Loopback.ALLOWED;

    @Test
    void anAddressWithoutMappingIsBoundAsItIsSeen() {
        HostedIps ips = HostedIps.parse(List.of("127.0.0.2", " 2001:DB8::7 "), LOOPBACK);

        assertThat(ips.publicIps()).containsExactly(EgressIp.of("127.0.0.2"), EgressIp.of("2001:db8::7"));
        assertThat(ips.bindOf(EgressIp.of("127.0.0.2"))).contains(EgressIp.of("127.0.0.2"));
    }

    @Test
    void aBindEqualsPublicEntryBindsThePrivateAddressAndIsKnownByThePublicOne() {
        HostedIps ips =
                HostedIps.parse(List.of("10.0.1.5=203.0.113.10", "10.0.1.6 = 203.0.113.11", "203.0.113.12"), LOOPBACK);

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
        assertThatThrownBy(() -> HostedIps.parse(List.of("127.0.0.2", entry), LOOPBACK))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void rejectsAPublicAddressListedTwiceEvenWithDifferentBindAddresses() {
        assertThatThrownBy(() -> HostedIps.parse(List.of("10.0.1.5=203.0.113.10", "10.0.1.6=203.0.113.10"), LOOPBACK))
                .hasMessage("egress.border.ips: '10.0.1.6=203.0.113.10': public address 203.0.113.10 is listed twice"
                        + " (expected: each dedicated IP once)");
        assertThatThrownBy(() -> HostedIps.parse(List.of("127.0.0.2", "127.0.0.2"), LOOPBACK))
                .hasMessageContaining("public address 127.0.0.2 is listed twice");
    }

    @Test
    void rejectsOneBindAddressServingTwoPublicAddresses() {
        assertThatThrownBy(() -> HostedIps.parse(List.of("10.0.1.5=203.0.113.10", "10.0.1.5=203.0.113.11"), LOOPBACK))
                .hasMessageContaining("'10.0.1.5=203.0.113.11': bind address 10.0.1.5 already serves 203.0.113.10");
        assertThatThrownBy(() -> HostedIps.parse(List.of("127.0.0.2", "127.0.0.2=203.0.113.11"), LOOPBACK))
                .hasMessageContaining("bind address 127.0.0.2 already serves 127.0.0.2");
    }

    @Test
    void rejectsAListWithoutEntries() {
        assertThatThrownBy(() -> HostedIps.parse(List.of(" ", ""), LOOPBACK))
                .hasMessageStartingWith("egress.border.ips: no entries");
    }

    @Test
    void anIpv4MappedSpellingIsTheIpv4AddressAndSoADuplicate() {
        HostedIps ips = HostedIps.parse(List.of("::ffff:127.0.0.2", "::FFFF:7f00:4=::ffff:127.0.0.3"), LOOPBACK);
        assertThat(ips.bindByPublic())
                .containsExactly(
                        Map.entry(EgressIp.of("127.0.0.2"), EgressIp.of("127.0.0.2")),
                        Map.entry(EgressIp.of("127.0.0.3"), EgressIp.of("127.0.0.4")));

        assertThatThrownBy(() -> HostedIps.parse(List.of("127.0.0.2", "::ffff:127.0.0.2"), LOOPBACK))
                .hasMessage("egress.border.ips: '::ffff:127.0.0.2': public address 127.0.0.2 is listed twice"
                        + " (expected: each dedicated IP once)");
        assertThatThrownBy(() ->
                        HostedIps.parse(List.of("10.0.1.5=203.0.113.10", "::ffff:10.0.1.5=203.0.113.11"), LOOPBACK))
                .hasMessageContaining("bind address 10.0.1.5 already serves 203.0.113.10");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0.0.0.0                | bind address 0.0.0.0 is unspecified (expected: one address of this host, not 0.0.0.0 or ::)",
                "::                     | bind address :: is unspecified",
                "::ffff:0.0.0.0         | bind address 0.0.0.0 is unspecified",
                "0.0.0.0=203.0.113.10   | bind address 0.0.0.0 is unspecified",
                "10.0.1.5=::            | public address :: is unspecified",
                "224.0.0.1              | bind address 224.0.0.1 is multicast (expected: a unicast address)",
                "ff02::1                | bind address ff02::1 is multicast",
                "10.0.1.5=239.1.2.3     | public address 239.1.2.3 is multicast",
                "239.1.2.3=203.0.113.10 | bind address 239.1.2.3 is multicast",
            })
    void refusesAddressesThatCannotBeOneSourceNamingTheEntryAndTheRule(String entry, String rule) {
        for (HostedIps.Loopback loopback : HostedIps.Loopback.values()) {
            assertThatThrownBy(() -> HostedIps.parse(List.of("203.0.113.12", entry), loopback))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("egress.border.ips: '%s': %s".formatted(entry, rule));
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "127.0.0.2             | bind address 127.0.0.2",
                "::1                   | bind address ::1",
                "::ffff:127.0.0.9      | bind address 127.0.0.9",
                "127.0.0.5=203.0.113.10 | bind address 127.0.0.5",
                "10.0.1.5=127.0.0.2    | public address 127.0.0.2",
            })
    void refusesLoopbackUnlessLocalRunsAllowIt(String entry, String address) {
        assertThatThrownBy(() -> HostedIps.parse(List.of(entry), HostedIps.Loopback.REFUSED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("egress.border.ips: '%s': %s is loopback (expected: an address targets can see;"
                                .formatted(entry, address)
                        + " loopback only for local runs, with egress.border.allow-loopback-ips=true)");
        assertThat(HostedIps.parse(List.of(entry), HostedIps.Loopback.ALLOWED).publicIps())
                .hasSize(1);
    }

    @Test
    void acceptsRoutableAddressesWithoutTheLoopbackOptIn() {
        assertThat(HostedIps.parse(List.of("10.0.1.5=203.0.113.10", "2001:db8::7"), HostedIps.Loopback.REFUSED)
                        .publicIps())
                .containsExactly(EgressIp.of("203.0.113.10"), EgressIp.of("2001:db8::7"));
    }
}
