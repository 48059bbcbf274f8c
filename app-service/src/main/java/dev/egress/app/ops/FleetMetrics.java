package dev.egress.app.ops;

import dev.egress.discovery.registry.RoutingTable;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Gauges an on-call pages on, read at scrape time from the same state the fleet view shows:
 * {@code egress.tenants.without.usable.ip{tenant_class}} (tenants whose webhooks cannot leave now; a
 * dedicated one above zero is an outage for a premium customer) and
 * {@code egress.registry.announcements.rejected.latest} (owners the latest registry read skipped).
 */
final class FleetMetrics {

    FleetMetrics(FleetViews views, RoutingTable table, MeterRegistry meters) {
        for (boolean dedicated : new boolean[] {true, false}) {
            Gauge.builder(
                            "egress.tenants.without.usable.ip",
                            views,
                            v -> v.tenantsWithoutUsableIp().stream()
                                    .filter(t -> t.dedicated() == dedicated)
                                    .count())
                    .tag("tenant_class", dedicated ? "dedicated" : "shared")
                    .description(
                            "Tenants none of whose allowed IPs is usable now (ACTIVE on a live Border, fresh routing)")
                    .register(meters);
        }
        Gauge.builder(
                        "egress.registry.announcements.rejected.latest",
                        table,
                        t -> t.latestRejections().size())
                .description("Announcements the latest registry read skipped (malformed or not acceptable)")
                .register(meters);
    }
}
