package dev.egress.app.status;

import dev.egress.app.routing.EgressRouter;
import dev.egress.discovery.registry.RoutingTable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the routing readiness indicator (health contributor {@code routing}). */
@Configuration(proxyBeanMethods = false)
class StatusConfiguration {

    @Bean
    RoutingReadinessIndicator routingHealthIndicator(RoutingTable table, EgressRouter router) {
        return new RoutingReadinessIndicator(table, router);
    }
}
