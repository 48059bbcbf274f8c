package dev.egress.app.status;

import dev.egress.app.config.SecurityProperties;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.discovery.registry.RoutingTable;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the routing readiness indicator (health contributor {@code routing}) and the check of the tenant-bound
 * token keys against the tenants file (health contributor {@code tenantTokens}).
 */
@Configuration(proxyBeanMethods = false)
class StatusConfiguration {

    @Bean
    RoutingReadinessIndicator routingHealthIndicator(RoutingTable table, EgressRouter router) {
        return new RoutingReadinessIndicator(table, router);
    }

    @Bean("tenantTokens")
    TenantTokenKeys tenantTokenKeys(SecurityProperties security, TenantPolicyStore tenants, MeterRegistry meters) {
        return new TenantTokenKeys(security, tenants, meters);
    }
}
