package dev.egress.app.resilience;

import dev.egress.discovery.BorderId;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One circuit breaker per Border, named {@code border-<id>}, created on first use from the registry's
 * shared base config ({@code resilience4j.circuitbreaker.configs.default}, or an instance entry of that
 * name) and removed when the Border leaves the snapshot, so a Border that comes back starts closed and
 * metrics do not keep dead Borders. State transitions are logged from breaker events, never from the
 * call path.
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
     * Whether a Border's breaker lets calls through now (CLOSED or HALF_OPEN).
     *
     * @param border the Border
     * @return false while OPEN or forced open
     */
    public boolean allows(BorderId border) {
        return registry.find(PREFIX + border.value())
                .map(b -> b.getState() != CircuitBreaker.State.OPEN && b.getState() != CircuitBreaker.State.FORCED_OPEN)
                .orElse(true);
    }

    /**
     * A Border's breaker state for operators, without creating a breaker.
     *
     * @param border the Border
     * @return its state; {@code CLOSED} for a Border that has no breaker yet
     */
    public CircuitBreaker.State state(BorderId border) {
        return registry.find(PREFIX + border.value())
                .map(CircuitBreaker::getState)
                .orElse(CircuitBreaker.State.CLOSED);
    }

    /**
     * Removes the breakers of Borders that left the snapshot.
     *
     * @param live the Borders in the current snapshot
     */
    public void retain(Collection<BorderId> live) {
        Set<String> keep = live.stream().map(b -> PREFIX + b.value()).collect(Collectors.toSet());
        for (CircuitBreaker breaker : registry.getAllCircuitBreakers()) {
            String name = breaker.getName();
            if (name.startsWith(PREFIX) && !keep.contains(name)) {
                registry.remove(name);
                log.info("Circuit breaker {} removed: its Border left the snapshot", name);
            }
        }
    }
}
