package dev.egress.app.resilience;

import dev.egress.app.routing.RoutingProperties;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the per-Border resilience primitives: breakers, passive health and route traffic. They follow no
 * snapshot themselves: App's fleet creates and retires each Border's pieces. The retry budget is sized by
 * {@code egress.dispatch.*} and wired by dispatch.
 */
@Configuration(proxyBeanMethods = false)
class ResilienceConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ResilienceConfiguration.class);

    @Bean
    BorderBreakers borderBreakers(CircuitBreakerRegistry registry) {
        return new BorderBreakers(registry);
    }

    @Bean
    PassiveHealth passiveHealth(RoutingProperties routing, MeterRegistry meters) {
        PassiveHealth health =
                new PassiveHealth(routing.ejectAfter(), routing.recoveryHold(), System::nanoTime, meters);
        health.onStateChange(change -> log.info(
                "Border {} {}: {}",
                change.border(),
                change.ejected() ? "ejected by passive health" : "returns from ejection",
                change.reason()));
        return health;
    }

    @Bean
    RouteTraffic routeTraffic(MeterRegistry meters) {
        return new RouteTraffic(Duration.ofMinutes(1), System::nanoTime, meters);
    }
}
