package dev.egress.app.resilience;

import dev.egress.discovery.registry.BorderId;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One circuit breaker per Border, named {@code border-<id>}, created from the registry's shared base config
 * ({@code resilience4j.circuitbreaker.configs.default}, or an instance entry of that name) when the Border joins
 * the snapshot and removed when it leaves, so a Border that comes back starts closed and metrics do not keep
 * dead Borders. The owner of the per-Border state (App's fleet) holds each breaker; state transitions are logged
 * from breaker events, never from the call path.
 */
public final class BorderBreakers {

    private static final Logger log = LoggerFactory.getLogger(BorderBreakers.class);
    private static final String PREFIX = "border-";

    private final CircuitBreakerRegistry registry;

    /**
     * Creates the breakers' home.
     *
     * @param registry resilience4j's registry (configured by Spring Boot)
     */
    public BorderBreakers(CircuitBreakerRegistry registry) {
        this.registry = registry;
        registry.getEventPublisher()
                .onEntryAdded(added -> added.getAddedEntry()
                        .getEventPublisher()
                        .onStateTransition(event -> log.info(
                                "Circuit breaker {}: {}", event.getCircuitBreakerName(), event.getStateTransition())));
    }

    /**
     * The breaker of a Border, created if missing.
     *
     * @param border the Border
     * @return its breaker
     */
    public CircuitBreaker of(BorderId border) {
        return registry.circuitBreaker(PREFIX + border.value());
    }

    /**
     * Removes a Border's breaker (its Border left the snapshot).
     *
     * @param breaker the breaker {@link #of} gave
     */
    public void remove(CircuitBreaker breaker) {
        registry.remove(breaker.getName());
        log.info("Circuit breaker {} removed: its Border left the snapshot", breaker.getName());
    }

    /**
     * Whether a breaker lets calls through now (CLOSED or HALF_OPEN).
     *
     * @param breaker the breaker
     * @return false while OPEN or forced open
     */
    public static boolean allows(CircuitBreaker breaker) {
        CircuitBreaker.State state = breaker.getState();
        return state != CircuitBreaker.State.OPEN && state != CircuitBreaker.State.FORCED_OPEN;
    }
}
