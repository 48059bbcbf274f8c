package dev.egress.app.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.EgressIp;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TenantPolicyClaimantTest {

    private static final String FILE = """
            sharedPool: [127.0.0.8]
            tenants:
              - id: acme
                dedicatedIps: [127.0.0.2]
                destinations: ["*.example.com", "hooks.acme.test", "192.0.2.7", "[2001:db8::7]:443"]
              - id: globex
                dedicatedIps: [127.0.0.3]
                destinations: ["api.example.com", "*.eu.example.com", "*.example.com:8443", "hooks.acme.test:444"]
              - id: initech
                destinations: ["api.example.com:9000", "*.b.eu.example.com:443", "2001:db8::7"]
              - id: nobody
            """;

    private final TenantPolicy policy = parse(FILE);

    @ParameterizedTest(name = "{0}:{1} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                // a wildcard claims names with at least one more label, never the bare suffix
                "a.example.com               | 443  | acme",
                "a.b.c.example.com           | 443  | acme",
                "example.com                 | 443  | ''",
                "notexample.com              | 443  | ''",
                // an exact host beats a wildcard, whatever the ports
                "api.example.com             | 443  | globex",
                "api.example.com             | 8443 | globex",
                // the same host with the request's port beats it without one
                "api.example.com             | 9000 | initech",
                "hooks.acme.test             | 444  | globex",
                "hooks.acme.test             | 443  | acme",
                // the longer wildcard suffix beats the shorter one
                "x.eu.example.com            | 443  | globex",
                "eu.example.com              | 443  | acme",
                "x.b.eu.example.com          | 443  | initech",
                "x.b.eu.example.com          | 80   | globex",
                // among wildcards of one suffix, the one with the port wins
                "x.example.com               | 8443 | globex",
                // case, trailing dot
                "A.EXAMPLE.com.              | 443  | acme",
                "Hooks.Acme.Test             | 444  | globex",
                // IP literals by canonical form; IPv6 with or without brackets
                "192.0.2.7                   | 1    | acme",
                "::ffff:192.0.2.7            | 65535| acme",
                "[2001:DB8::7]               | 443  | acme",
                "2001:db8:0:0:0:0:0:7        | 443  | acme",
                "2001:db8::7                 | 80   | initech",
                "[2001:db8::8]               | 443  | ''",
                // unclaimed
                "192.0.2.8                   | 443  | ''",
                "hooks.acme.test.evil        | 443  | ''",
                "b\u00fccher.example.com     | 443  | ''"
            })
    void picksTheMostSpecificClaim(String host, int port, String tenant) {
        Optional<Tenant> claimant = policy.claimant(host, port);
        if (tenant.isEmpty()) {
            assertThat(claimant).isEmpty();
        } else {
            assertThat(claimant).map(Tenant::id).contains(tenant);
        }
    }

    @Test
    void anIpLiteralIsNeverClaimedByAWildcard() {
        // "*.2.7" cannot be written, but a policy built by hand could hold the suffix: it must not apply.
        Tenant odd =
                new Tenant("odd", List.of(), List.of(new Destination("2.7", true, 0), new Destination("b1", true, 0)));
        TenantPolicy handMade = new TenantPolicy(List.of(EgressIp.of("127.0.0.8")), Map.of("odd", odd));

        assertThat(handMade.claimant("192.0.2.7", 443)).isEmpty();
        assertThat(handMade.claimant("a.2.7", 443)).isEmpty();
        assertThat(handMade.claimant("a.b1", 443)).map(Tenant::id).contains("odd");
    }

    @Test
    void aSharedPoolTenantMayClaimDestinations() {
        Tenant initech = policy.claimant("api.example.com", 9000).orElseThrow();

        assertThat(initech.dedicated()).isFalse();
        assertThat(policy.allowedIps(initech)).containsExactly(EgressIp.of("127.0.0.8"));
    }

    @Test
    void aPolicyWithoutDestinationsClaimsNothing() {
        TenantPolicy none = parse("tenants: [{id: a, dedicatedIps: [127.0.0.2]}]");

        assertThat(none.claimant("example.com", 443)).isEmpty();
        assertThat(none.tenant("a").orElseThrow().destinations()).isEmpty();
    }

    @Test
    void refusesAPortOutOfRange() {
        assertThat(policy.claimant("a.example.com", 1)).isPresent();
        assertThat(policy.claimant("a.example.com", 65_535)).isPresent();
        assertThatThrownBy(() -> policy.claimant("a.example.com", 0)).hasMessageContaining("port: 0");
        assertThatThrownBy(() -> policy.claimant("a.example.com", 65_536)).hasMessageContaining("port: 65536");
    }

    @Test
    void refusesTwoTenantsClaimingOneDestinationEvenWhenBuiltByHand() {
        Tenant a = new Tenant("a", List.of(), List.of(Destination.parse("x.test")));
        Tenant b = new Tenant("b", List.of(), List.of(Destination.parse("X.test.")));
        Tenant again = new Tenant("c", List.of(), List.of(Destination.parse("y.test"), Destination.parse("y.test")));

        assertThatThrownBy(() -> new TenantPolicy(List.of(), Map.of("a", a, "b", b)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("destination x.test is claimed by both '")
                .hasMessageContaining("'a'")
                .hasMessageContaining("'b'");
        // One tenant naming a destination twice claims it once (the parser refuses the file earlier).
        assertThat(new TenantPolicy(List.of(), Map.of("c", again)).claimant("y.test", 1))
                .contains(again);
    }

    private static TenantPolicy parse(String yaml) {
        try {
            return TenantPolicyParser.parse(yaml);
        } catch (InvalidTenantsFileException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
