package dev.egress.app.routing;

import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.select.BorderSelector;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the routing table, the selection strategy and the router. The registry watcher that feeds the
 * table comes from registry-ydb's {@code RegistryAutoConfiguration}, only when
 * {@code egress.registry.connection-string} is set; it polls at the interval {@link RoutingProperties}
 * binds and validates. The standing claims are kept in step with the claims table when durable delivery provides one
 * (a {@link ClaimRecords} bean), and are this process's memory otherwise.
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

    @Bean(destroyMethod = "close")
    ClaimsSync claimsSync(
            EgressRouter router,
            ObjectProvider<ClaimRecords> records,
            RoutingProperties properties,
            Clock clock,
            MeterRegistry meters) {
        ClaimsSync sync =
                new ClaimsSync(router, records.getIfAvailable(), properties.claimsSyncInterval(), clock, meters);
        sync.start();
        return sync;
    }

    @Bean
    SnapshotMetrics snapshotMetrics(RoutingTable table, MeterRegistry meters) {
        return new SnapshotMetrics(table, meters);
    }
}
