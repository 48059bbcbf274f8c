package dev.egress.discovery.registry;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The routing table's gauges, defined once. They read the table at scrape time, so they can never
 * disagree with what the request path sees. The service that owns the table binds them once; the
 * registry watcher does not, so a second registration (and Micrometer's "already registered" warning at
 * every start) cannot happen.
 *
 * <ul>
 *   <li>{@code egress.routing.snapshot.age}: seconds since the registry last confirmed the snapshot
 *       (NaN before the first read) — the staleness alarm</li>
 *   <li>{@code egress.routing.snapshot.generation}: App's own counter of snapshot swaps (not a
 *       Border's announcement generation)</li>
 *   <li>{@code egress.routing.borders.live}, {@code egress.routing.ips.live},
 *       {@code egress.routing.ips.conflicts} (IPs announced by more than one live Border)</li>
 * </ul>
 */
public final class RoutingGauges {

    private RoutingGauges() {}

    /**
     * Registers the gauges over a table.
     *
     * @param table  the routing table
     * @param meters the registry
     */
    public static void bind(RoutingTable table, MeterRegistry meters) {
        Gauge.builder(
                        "egress.routing.snapshot.age",
                        table,
                        t -> t.isReady() ? t.age().toNanos() / 1e9 : Double.NaN)
                .description("Seconds since the registry last confirmed the routing snapshot")
                .baseUnit("seconds")
                .register(meters);
        Gauge.builder(
                        "egress.routing.snapshot.generation",
                        table,
                        t -> t.current().generation())
                .description("This App's snapshot generation (counts swaps; not a Border's announcement generation)")
                .register(meters);
        Gauge.builder(
                        "egress.routing.borders.live",
                        table,
                        t -> t.current().announcements().size())
                .description("Live Borders in the routing snapshot")
                .register(meters);
        Gauge.builder("egress.routing.ips.live", table, t -> t.current().ips().size())
                .description("IPs announced by at least one live Border")
                .register(meters);
        Gauge.builder(
                        "egress.routing.ips.conflicts",
                        table,
                        t -> t.current().conflicts().size())
                .description("IPs announced by more than one live Border")
                .register(meters);
    }
}
