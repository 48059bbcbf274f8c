package dev.egress.app.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.app.tenants.TenantsProperties;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.select.BorderSelectors;
import dev.egress.discovery.registry.testing.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default split of strategies: a shared pool spreads its tenants (each stays on one IP), while a
 * dedicated tenant keeps the dedicated strategy.
 */
class SharedPoolSpreadTest {

    private static final int SHARED_TENANTS = 40;

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T10:00:00Z"));
    private final RoutingTable table = new RoutingTable(clock);
    private TenantPolicyStore tenants;
    private EgressRouter router;

    @BeforeEach
    void setUp() throws Exception {
        StringBuilder yaml = new StringBuilder("sharedPool: [127.0.0.2, 127.0.0.5]\ntenants:\n"
                + "  - id: acme\n    dedicatedIps: [127.0.0.3, 127.0.0.4]\n");
        IntStream.range(0, SHARED_TENANTS)
                .forEach(i -> yaml.append("  - id: shared-").append(i).append('\n'));
        Path file = Files.writeString(dir.resolve("t.yaml"), yaml);
        tenants = new TenantPolicyStore(
                new TenantsProperties(file, Duration.ofSeconds(60)), new SimpleMeterRegistry(), clock);
        RoutingProperties properties = RoutingDefaults.properties();
        router = new EgressRouter(
                table,
                tenants,
                BorderSelectors.byName("lowest-border-id", Map.of()),
                BorderSelectors.byName("rendezvous", Map.of()),
                properties,
                new SimpleMeterRegistry());
        table.offer(RoutingSnapshot.fromAnnouncements(
                List.of(border("border-a", "127.0.0.2", "127.0.0.3"), border("border-b", "127.0.0.4", "127.0.0.5")),
                clock.instant()));
    }

    @AfterEach
    void tearDown() {
        tenants.close();
    }

    @Test
    void sharedPoolTenantsSpreadOverThePoolAndEachStaysOnOneIp() {
        Map<String, Set<String>> ipsByTenant = IntStream.range(0, SHARED_TENANTS)
                .mapToObj(i -> "shared-" + i)
                .collect(Collectors.toMap(t -> t, t -> new HashSet<>()));
        for (int delivery = 0; delivery < 20; delivery++) {
            long requestKey = delivery * 7919L; // different URLs per delivery must not move a shared tenant
            for (String tenant : ipsByTenant.keySet()) {
                ipsByTenant.get(tenant).add(choose(tenant, requestKey).ip().value());
            }
        }

        assertThat(ipsByTenant.values()).allSatisfy(ips -> assertThat(ips).hasSize(1));
        Set<String> used = ipsByTenant.values().stream().flatMap(Set::stream).collect(Collectors.toSet());
        assertThat(used).containsExactlyInAnyOrder("127.0.0.2", "127.0.0.5");
    }

    @Test
    void aDedicatedTenantKeepsTheDedicatedStrategy() {
        for (long requestKey = 0; requestKey < 50; requestKey++) {
            // lowest-border-id: border-a's 127.0.0.3, whatever the key
            assertThat(choose("acme", requestKey).ip().value()).isEqualTo("127.0.0.3");
        }
    }

    private Route choose(String tenant, long requestKey) {
        return router.choose(router.resolve(tenant), requestKey, Set.of(), border -> true);
    }

    private static Announcement border(String id, String... ips) {
        List<AnnouncedIp> announced = Arrays.stream(ips)
                .map(ip -> new AnnouncedIp(EgressIp.of(ip), IpStatus.ACTIVE))
                .toList();
        return Announcement.initial(BorderId.of(id), URI.create("http://127.0.0.1:1"), announced, Instant.now());
    }
}
