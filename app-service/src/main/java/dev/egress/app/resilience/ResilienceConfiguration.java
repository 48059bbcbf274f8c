package dev.egress.app.resilience;

import dev.egress.app.dispatch.DispatchProperties;
import dev.egress.app.routing.RoutingProperties;
import dev.egress.discovery.RoutingTable;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires breakers, passive health and the retry budget, and drops per-Border state when a Border leaves
 * the snapshot.
 */
@Configuration(proxyBeanMethods = false)
class ResilienceConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ResilienceConfiguration.class);

    @Bean
    BorderBreakers borderBreakers(CircuitBreakerRegistry registry, RoutingTable table) {
        BorderBreakers breakers = new BorderBreakers(registry);
        table.addListener(snapshot -> breakers.retain(snapshot.announcements().keySet()));
        return breakers;
    }

    @Bean
    PassiveHealth passiveHealth(RoutingProperties routing, RoutingTable table, MeterRegistry meters) {
        PassiveHealth health =
                new PassiveHealth(routing.ejectAfter(), routing.recoveryHold(), System::nanoTime, meters);
        health.onStateChange(change -> log.info(
                "Border {} {}: {}",
                change.border(),
                change.ejected() ? "ejected by passive health" : "returns from ejection",
                change.reason()));
        table.addListener(snapshot -> health.retain(snapshot.announcements().keySet()));
        return health;
    }

    @Bean
    RouteTraffic routeTraffic(RoutingTable table, MeterRegistry meters) {
        RouteTraffic traffic = new RouteTraffic(Duration.ofMinutes(1), System::nanoTime, meters);
        table.addListener(snapshot -> traffic.retain(snapshot.announcements().keySet()));
        return traffic;
    }

    @Bean
    RetryBudget retryBudget(DispatchProperties dispatch) {
        return new RetryBudget(dispatch.retryBudgetRatio(), dispatch.retryBudgetBurst());
    }
}
