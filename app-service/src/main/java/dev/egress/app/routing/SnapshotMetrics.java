package dev.egress.app.routing;

import dev.egress.discovery.registry.RoutingGauges;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds the routing table's gauges ({@link RoutingGauges}: snapshot age, the staleness alarm, generation,
 * live Borders and IPs, conflicts) once for this App, and logs conflicts once per snapshot that has them.
 */
final class SnapshotMetrics {

    private static final Logger log = LoggerFactory.getLogger(SnapshotMetrics.class);

    SnapshotMetrics(RoutingTable table, MeterRegistry meters) {
        RoutingGauges.bind(table, meters);
        table.addListener(SnapshotMetrics::logConflicts);
    }

    private static void logConflicts(RoutingSnapshot snapshot) {
        if (!snapshot.conflicts().isEmpty()) {
            log.warn(
                    "Routing snapshot {} has IPs announced by several Borders (a dedicated IP announced ACTIVE by two or more "
                            + "takes none of its tenant's deliveries; a shared one is picked by the shared strategy): {}",
                    snapshot.generation(),
                    snapshot.conflicts());
        }
    }
}
