package dev.egress.app.routing;

import dev.egress.app.config.SecurityProperties;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.discovery.RoutingTable;
import dev.egress.discovery.AnnouncementReader;
import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.RegistryWatcher;
import dev.egress.discovery.registry.ydb.YdbRegistryWatcher;
import dev.egress.discovery.select.BorderSelector;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the routing table, the selection strategy, the router and — only when
 * {@code egress.registry.connection-string} is set — the registry watcher that feeds the table.
 */
@Configuration(proxyBeanMethods = false)
class RoutingConfiguration {

    @Bean
    RoutingTable routingTable(Clock clock) {
        return new RoutingTable(clock);
    }

    @Bean
    EgressRouter egressRouter(RoutingTable table, TenantPolicyStore tenants, RoutingProperties properties,
                              MeterRegistry meters) {
        BorderSelector dedicated = Selectors.byName("egress.routing.strategy", properties.strategy(), properties.weights());
        BorderSelector shared = Selectors.byName("egress.routing.shared-strategy", properties.sharedStrategy(),
                properties.weights());
        return new EgressRouter(table, tenants, dedicated, shared, properties, meters);
    }

    @Bean
    SnapshotMetrics snapshotMetrics(RoutingTable table, MeterRegistry meters) {
        return new SnapshotMetrics(table, meters);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnExpression("!'${egress.registry.connection-string:}'.isBlank()")
    RegistryWatcher registryWatcher(RegistryProperties registry, RoutingProperties routing, RoutingTable table,
                                    SecurityProperties security, MeterRegistry meters, AnnouncementReader reader) {
        RegistrySettings settings = new RegistrySettings(registry.connectionString().trim(), registry.node(),
                registry.semaphore(), registry.sessionTimeout(), routing.pollInterval(), registry.auth(),
                registry.createIfMissing()).requireTokenOverTls(security.insecureLocal());
        return YdbRegistryWatcher.start(settings, table, meters, reader);
    }
}
