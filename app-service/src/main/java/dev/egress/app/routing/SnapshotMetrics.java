package dev.egress.app.routing;

import dev.egress.discovery.RoutingSnapshot;
import dev.egress.discovery.RoutingTable;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges over the routing table: snapshot age (the staleness alarm), generation, live Borders and IPs
 * announced by more than one Border. Conflicts are logged once per snapshot that has them.
 */
final class SnapshotMetrics {

    private static final Logger log = LoggerFactory.getLogger(SnapshotMetrics.class);

    SnapshotMetrics(RoutingTable table, MeterRegistry meters) {
        Gauge.builder("egress.routing.snapshot.age", table,
                        t -> t.isReady() ? t.age().toNanos() / 1e9 : Double.NaN)
                .baseUnit(TimeUnit.SECONDS.name().toLowerCase(java.util.Locale.ROOT))
                .description("Time since the registry last confirmed the routing snapshot").register(meters);
        Gauge.builder("egress.routing.snapshot.generation", table, t -> t.current().generation())
                .description("Generation of the current routing snapshot").register(meters);
        Gauge.builder("egress.routing.borders", table, t -> t.current().announcements().size())
                .description("Live Borders in the routing snapshot").register(meters);
        Gauge.builder("egress.routing.conflicts", table, t -> t.current().conflicts().size())
                .description("IPs announced by more than one live Border").register(meters);
        table.addListener(SnapshotMetrics::logConflicts);
    }

    private static void logConflicts(RoutingSnapshot snapshot) {
        if (!snapshot.conflicts().isEmpty()) {
            log.warn("Routing snapshot {} has IPs announced by several Borders (lowest Border id wins by default): {}",
                    snapshot.generation(), snapshot.conflicts());
        }
    }
}
