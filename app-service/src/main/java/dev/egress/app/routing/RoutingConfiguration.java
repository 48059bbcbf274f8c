package dev.egress.app.routing;

import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.select.BorderSelector;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the routing table, the selection strategy and the router. The registry watcher that feeds the
 * table comes from registry-ydb's {@code RegistryAutoConfiguration}, only when
 * {@code egress.registry.connection-string} is set; it polls at the interval {@link RoutingProperties}
 * binds and validates.
 */
@Configuration(proxyBeanMethods = false)
class RoutingConfiguration {

    @Bean
    RoutingTable routingTable(Clock clock) {
        return new RoutingTable(clock);
    }

    @Bean
    EgressRouter egressRouter(
            RoutingTable table, TenantPolicyStore tenants, RoutingProperties properties, MeterRegistry meters) {
        BorderSelector dedicated =
                Selectors.byName("egress.routing.strategy", properties.strategy(), properties.weights());
        BorderSelector shared =
                Selectors.byName("egress.routing.shared-strategy", properties.sharedStrategy(), properties.weights());
        return new EgressRouter(table, tenants, dedicated, shared, properties, meters);
    }

    @Bean
    SnapshotMetrics snapshotMetrics(RoutingTable table, MeterRegistry meters) {
        return new SnapshotMetrics(table, meters);
    }
}
