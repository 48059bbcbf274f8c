package dev.egress.app.routing;

import dev.egress.discovery.registry.select.BorderSelectors;
import java.time.Duration;
import java.util.Map;

/** The routing settings the router's tests start from: the defaults of {@code egress.routing.*}. */
final class RoutingDefaults {

    private RoutingDefaults() {}

    /**
     * The default settings.
     *
     * @return lowest-border-id for dedicated tenants, rendezvous for the shared pool, 30 s staleness, serve shared
     *         when stale, the default ejection and a 1 s claims sync
     */
    static RoutingProperties properties() {
        return new RoutingProperties(
                BorderSelectors.LOWEST_BORDER_ID,
                BorderSelectors.RENDEZVOUS,
                Map.of(),
                Duration.ofSeconds(30),
                RoutingProperties.SharedWhenStale.SERVE,
                3,
                Duration.ofSeconds(30),
                Duration.ofMillis(500),
                Duration.ofSeconds(5),
                Duration.ofSeconds(1));
    }
}
