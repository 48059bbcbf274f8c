package dev.egress.app.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.discovery.registry.EgressIp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TenantPolicyParserTest {

    @Test
    void readsDedicatedAndSharedTenants() throws Exception {
        TenantPolicy policy = TenantPolicyParser.parse("""
                sharedPool: [203.0.113.50, 2001:DB8::1]
                tenants:
                  - id: acme
                    dedicatedIps: [203.0.113.10, 203.0.113.11]
                  - id: small-co
                """);
        assertThat(policy.sharedPool()).containsExactly(EgressIp.of("203.0.113.50"), EgressIp.of("2001:db8::1"));
        Tenant acme = policy.tenant("acme").orElseThrow();
        assertThat(acme.dedicated()).isTrue();
        assertThat(policy.allowedIps(acme)).containsExactly(EgressIp.of("203.0.113.10"), EgressIp.of("203.0.113.11"));
        Tenant small = policy.tenant("small-co").orElseThrow();
        assertThat(small.dedicated()).isFalse();
        assertThat(policy.allowedIps(small)).isEqualTo(policy.sharedPool());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not yaml                  | 'tenants: [a'                                                      | not valid YAML",
                "root list                 | '[1]'                                                              | root",
                "unknown top key           | 'tenants: []\nsharedpool: []'                                      | unknown key",
                "tenants missing           | 'sharedPool: [127.0.0.8]'                                          | tenants: expected a list",
                "bad ip                    | 'tenants: [{id: a, dedicatedIps: [1.2.3]}]'                        | dedicatedIps[0]",
                "lenient ipv4              | 'tenants: [{id: a, dedicatedIps: [127.1]}]'                        | dedicatedIps[0]",
                "empty dedicated list      | 'tenants: [{id: a, dedicatedIps: []}]'                             | non-empty",
                "typo in tenant key        | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, dedicatedIp: [127.0.0.2]}]' | unknown key",
                "duplicate id              | 'sharedPool: [127.0.0.8]\ntenants: [{id: a}, {id: a}]'             | defined twice",
                "bad id                    | 'sharedPool: [127.0.0.8]\ntenants: [{id: \"a b\"}]'                | .id",
                "dedicated in shared       | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, dedicatedIps: [127.0.0.8]}]' | also in sharedPool",
                "dedicated in shared (v6)  | 'sharedPool: [\"::1\"]\ntenants: [{id: a, dedicatedIps: [\"0:0::1\"]}]' | also in sharedPool",
                "one ip, two tenants       | 'tenants: [{id: acme, dedicatedIps: [127.0.0.2, 127.0.0.3]}, {id: globex, dedicatedIps: [127.0.0.3]}]' | 127.0.0.3 is dedicated to both 'acme' and 'globex'",
                "shared tenant, no pool    | 'tenants: [{id: a}]'                                               | sharedPool: empty",
                "duplicate ip              | 'sharedPool: [127.0.0.8, 127.0.0.8]\ntenants: []'                  | listed twice",
                "duplicate yaml key        | 'tenants: []\ntenants: []'                                         | not valid YAML",
                "destinations not a list   | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, destinations: x.test}]' | tenants[0].destinations (tenant 'a'): expected a non-empty list",
                "destinations empty        | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, destinations: []}]'     | tenants[0].destinations (tenant 'a'): expected a non-empty list",
                "destination a number      | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, destinations: [443]}]'  | tenants[0].destinations[0] (tenant 'a'): 443 (expected: a host",
                "destination invalid       | 'sharedPool: [127.0.0.8]\ntenants: [{id: a}, {id: b, destinations: [ok.test, \"a..test\"]}]' | tenants[1].destinations[1] (tenant 'b'): 'a..test': label ''",
                "destination twice         | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, destinations: [x.test, X.test.]}]' | tenants[0].destinations[1] (tenant 'a'): x.test listed twice",
                "destination, two tenants  | 'sharedPool: [127.0.0.8]\ntenants: [{id: acme, destinations: [\"*.x.test:443\"]}, {id: globex, destinations: [\"*.X.test.:443\"]}]' | tenants[1].destinations: *.x.test:443 is claimed by both 'acme' and 'globex'",
                "ipv6 claimed twice        | 'sharedPool: [127.0.0.8]\ntenants: [{id: acme, destinations: [\"2001:db8::7\"]}, {id: globex, destinations: [\"[2001:DB8:0::7]\"]}]' | 2001:db8::7 is claimed by both 'acme' and 'globex'",
                "duplicate id, same claim  | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, destinations: [x.test]}, {id: a, destinations: [x.test]}]' | defined twice",
                "destination unknown key   | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, destination: [x.test]}]' | unknown key",
                "signing quoted            | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, signing: \"true\"}]'   | tenants[0].signing (tenant 'a'): true (expected: true or false)",
                "signing empty             | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, signing: }]'           | tenants[0].signing (tenant 'a'): null (expected: true or false)",
                "schedule not a list       | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, retrySchedule: 5s}]'   | tenants[0].retrySchedule: expected a list of durations",
                "schedule empty            | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, retrySchedule: []}]'   | tenants[0].retrySchedule: 0 entries (expected: 1 to 30 attempts) (tenant 'a')",
                "schedule bare number      | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, retrySchedule: [0s, 5]}]' | tenants[0].retrySchedule[1]: '5' (expected: a whole number with a unit",
                "schedule bad unit         | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, retrySchedule: [5w]}]' | tenants[0].retrySchedule[0]: '5w'",
                "schedule negative         | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, retrySchedule: [-5s]}]' | tenants[0].retrySchedule[0]: '-5s'",
                "schedule step too long    | 'sharedPool: [127.0.0.8]\ntenants: [{id: a}, {id: b, retrySchedule: [0s, 8d]}]' | tenants[1].retrySchedule[1]: 192h (expected: 0s to 168h) (tenant 'b')",
                "schedule misspelt         | 'sharedPool: [127.0.0.8]\ntenants: [{id: a, retry-schedule: [0s]}]' | unknown key"
            })
    void rejectsBrokenFilesNamingTheRule(String name, String yaml, String message) {
        assertThatThrownBy(() -> TenantPolicyParser.parse(yaml.replace("\\n", "\n")))
                .isInstanceOf(InvalidTenantsFileException.class)
                .hasMessageContaining(message);
    }

    @Test
    void readsDestinationsOfDedicatedAndSharedTenants() throws Exception {
        TenantPolicy policy = TenantPolicyParser.parse("""
                sharedPool: [127.0.0.8]
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.2]
                    destinations: [Hooks.Acme.Test, "*.acme.test:443", "[2001:db8::7]:443"]
                  - id: small-co
                    destinations: [small.test]
                  - id: quiet
                """);

        assertThat(policy.tenant("acme").orElseThrow().destinations())
                .extracting(Destination::toString)
                .containsExactly("hooks.acme.test", "*.acme.test:443", "[2001:db8::7]:443");
        assertThat(policy.tenant("small-co").orElseThrow().destinations())
                .containsExactly(Destination.parse("small.test"));
        assertThat(policy.tenant("quiet").orElseThrow().destinations()).isEmpty();
        assertThat(policy.claimant("small.test", 443)).map(Tenant::id).contains("small-co");
    }

    @Test
    void overlappingButDifferentClaimsOfTwoTenantsAreAccepted() throws Exception {
        TenantPolicy policy = TenantPolicyParser.parse("""
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.2]
                    destinations: ["*.example.com", "api.example.com:443"]
                  - id: globex
                    dedicatedIps: [127.0.0.3]
                    destinations: ["api.example.com", "*.example.com:443", "*.api.example.com"]
                """);

        assertThat(policy.claimant("api.example.com", 443)).map(Tenant::id).contains("acme");
        assertThat(policy.claimant("api.example.com", 80)).map(Tenant::id).contains("globex");
        assertThat(policy.claimant("www.example.com", 443)).map(Tenant::id).contains("globex");
        assertThat(policy.claimant("www.example.com", 80)).map(Tenant::id).contains("acme");
    }

    @Test
    void theLocalPlatformsFileParsesAndAcmeClaimsItsExampleDestination() throws Exception {
        Path local = Path.of("..", "local", "tenants.yaml");
        TenantPolicy policy = TenantPolicyParser.parse(Files.readString(local));

        assertThat(policy.claimant("acme.example.test", 443)).map(Tenant::id).contains("acme");
        assertThat(policy.claimant("127.0.0.1", 9999)).isEmpty();
    }

    @Test
    void readsSigningAndATenantsOwnRetrySchedule() throws Exception {
        TenantPolicy policy = TenantPolicyParser.parse("""
                sharedPool: [127.0.0.8]
                tenants:
                  - id: acme
                    signing: true
                    retrySchedule: [0s, 500ms, 10s, 1m, 2h, 1d]
                  - id: quiet
                    signing: false
                  - id: plain
                """);

        Tenant acme = policy.tenants().get("acme");
        assertThat(acme.signing()).isTrue();
        assertThat(acme.retrySchedule()).isNotNull();
        assertThat(acme.retrySchedule().delays())
                .containsExactly(
                        Duration.ZERO,
                        Duration.ofMillis(500),
                        Duration.ofSeconds(10),
                        Duration.ofMinutes(1),
                        Duration.ofHours(2),
                        Duration.ofDays(1));
        assertThat(policy.tenants().get("quiet").signing()).isFalse();
        assertThat(policy.tenants().get("plain").signing()).isFalse();
        assertThat(policy.tenants().get("plain").retrySchedule()).isNull();
    }

    @Test
    void aSigningOrScheduleChangeChangesTheTenant() throws Exception {
        String before = "sharedPool: [127.0.0.8]\ntenants: [{id: a, retrySchedule: [0s, 5s]}]";
        Tenant tenant = TenantPolicyParser.parse(before).tenants().get("a");

        assertThat(TenantPolicyParser.parse(before).tenants().get("a")).isEqualTo(tenant);
        assertThat(TenantPolicyParser.parse(before.replace("5s", "6s"))
                        .tenants()
                        .get("a"))
                .isNotEqualTo(tenant);
        assertThat(TenantPolicyParser.parse(before.replace("}", ", signing: true}"))
                        .tenants()
                        .get("a"))
                .isNotEqualTo(tenant);
    }

    @Test
    void refusesYamlTags() {
        assertThatThrownBy(() -> TenantPolicyParser.parse("tenants: !!java.util.ArrayList []"))
                .isInstanceOf(InvalidTenantsFileException.class);
    }

    @Test
    void refusesYamlAliases() {
        // Without the alias limit this would parse, and two tenants would silently share one IP list.
        assertThatThrownBy(() -> TenantPolicyParser.parse(
                        "tenants: [{id: a, dedicatedIps: &ips [127.0.0.2]}, {id: b, dedicatedIps: *ips}]"))
                .isInstanceOf(InvalidTenantsFileException.class)
                .hasMessageStartingWith("not valid YAML: ");
    }

    @Test
    void namesOnlyTheFirstLineOfAYamlError() {
        assertThatThrownBy(() -> TenantPolicyParser.parse("tenants: [a"))
                .isInstanceOf(InvalidTenantsFileException.class)
                .satisfies(e -> assertThat(e.getMessage()).matches("not valid YAML: while (parsing|scanning) [^\n]+"));
    }

    @Test
    void aFileOfDedicatedTenantsOnlyNeedsNoSharedPool() throws Exception {
        TenantPolicy policy = TenantPolicyParser.parse("tenants: [{id: a, dedicatedIps: [127.0.0.2]}]");

        assertThat(policy.sharedPool()).isEmpty();
        assertThat(policy.tenant("a")).isPresent();
    }
}
