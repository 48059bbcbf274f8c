package dev.egress.border.egress;

import dev.egress.border.BorderProperties;
import dev.egress.border.decisions.DecisionKeeper;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.discovery.registry.IpStatus;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * Registers the Border once it is listening (after restoring its stored operator decisions, so that the
 * first announcement carries them), and on shutdown drains it in the order App needs:
 * announce every IP DRAINING (App stops choosing this Border), refuse new calls with 409, wait for
 * in-flight calls up to {@code egress.border.drain-timeout}, then release the slot. The highest phase
 * makes this start after the web server and stop before it (so in-flight answers can still be written).
 */
final class BorderLifecycle implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(BorderLifecycle.class);
    /** How long shutdown waits for the registry to accept the DRAINING announcement. */
    private static final Duration PUBLISH_WAIT = Duration.ofSeconds(3);

    private final BorderRegistrar registrar;
    private final DecisionKeeper decisions;
    private final Admission admission;
    private final Duration drainTimeout;
    private final ApplicationEventPublisher events;
    private volatile boolean running;

    BorderLifecycle(
            BorderRegistrar registrar,
            DecisionKeeper decisions,
            Admission admission,
            BorderProperties border,
            ApplicationEventPublisher events) {
        this.registrar = registrar;
        this.decisions = decisions;
        this.admission = admission;
        this.drainTimeout = border.drainTimeout();
        this.events = events;
    }

    @Override
    public void start() {
        // Read first: an IP an operator disabled must not be announced ACTIVE even for one generation.
        decisions.restore();
        registrar.register();
        running = true;
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        long started = System.nanoTime();
        AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
        log.info("Draining: announcing every IP DRAINING, {} calls in flight", admission.total());
        try {
            registrar.setAll(IpStatus.DRAINING).get(PUBLISH_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            // Keep going: the slot is released below anyway, which removes this Border from routing.
            log.warn("Could not publish DRAINING before shutdown; releasing the slot after the drain", e);
        }
        try {
            Duration left = drainTimeout.minusNanos(System.nanoTime() - started);
            boolean idle = admission.drain(left.isNegative() ? Duration.ZERO : left);
            if (idle) {
                log.info("Drained: no calls in flight");
            } else {
                log.warn("Drain timeout {} reached with {} calls in flight", drainTimeout, admission.total());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            registrar.close();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1000;
    }
}
