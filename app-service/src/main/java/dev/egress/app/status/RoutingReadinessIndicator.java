package dev.egress.app.status;

import dev.egress.app.routing.EgressRouter;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Part of readiness: DOWN until the first routing snapshot is loaded, then UP with the snapshot's age.
 * A stale snapshot stays UP (with {@code stale=true}): taking every App out of rotation when the
 * registry is unreachable would stop shared traffic that can still be served.
 */
final class RoutingReadinessIndicator implements HealthIndicator {

    private final RoutingTable table;
    private final EgressRouter router;

    RoutingReadinessIndicator(RoutingTable table, EgressRouter router) {
        this.table = table;
        this.router = router;
    }

    @Override
    public Health health() {
        if (!table.isReady()) {
            return Health.down()
                    .withDetail("reason", "no routing snapshot loaded yet")
                    .build();
        }
        RoutingSnapshot snapshot = table.current();
        return Health.up()
                .withDetail("generation", snapshot.generation())
                .withDetail("ageMillis", table.age().toMillis())
                .withDetail("stale", router.isStale())
                .withDetail("borders", snapshot.announcements().size())
                .withDetail("ips", snapshot.ips().size())
                .build();
    }
}
