package dev.egress.app.resilience;

import dev.egress.discovery.registry.BorderId;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One Border's passive-health state ({@link PassiveHealth}): its streak of consecutive failures and whether it
 * is ejected. Lives as long as the Border is in the snapshot; {@link #forget()} ends it.
 */
public final class Ejection {

    private final PassiveHealth health;
    private final BorderId border;
    private final AtomicInteger consecutiveFailures = new AtomicInteger();
    private final AtomicBoolean ejected = new AtomicBoolean();
    private volatile long lastFailureNanos;
    private volatile boolean forgotten;

    Ejection(PassiveHealth health, BorderId border) {
        this.health = health;
        this.border = border;
    }

    /**
     * Whether the Border takes traffic. Ends an ejection whose hold has passed.
     *
     * @return false while ejected
     */
    public boolean isHealthy() {
        if (!ejected.get()) {
            return true;
        }
        if (health.now() - lastFailureNanos < health.recoveryHoldNanos()) {
            return false;
        }
        consecutiveFailures.set(0);
        if (ejected.compareAndSet(true, false) && !forgotten) {
            health.ejected(false);
            health.publish(new PassiveHealth.StateChange(
                    border, false, "%s without failures".formatted(Duration.ofNanos(health.recoveryHoldNanos()))));
        }
        return true;
    }

    /**
     * Whether the Border is ejected now, for operators. Unlike {@link #isHealthy} it never ends an ejection: a
     * read-only view must not change what the call path sees.
     *
     * @return true while ejected and its hold has not passed
     */
    public boolean isEjected() {
        return ejected.get() && health.now() - lastFailureNanos < health.recoveryHoldNanos();
    }

    /** Records a successful attempt. */
    public void onSuccess() {
        consecutiveFailures.set(0);
    }

    /** Records a failed attempt (the Border could not be reached, failed, or timed out). */
    public void onFailure() {
        lastFailureNanos = health.now();
        if (consecutiveFailures.incrementAndGet() >= health.ejectAfter()
                && !forgotten
                && ejected.compareAndSet(false, true)) {
            health.ejected(true);
            health.publish(new PassiveHealth.StateChange(
                    border,
                    true,
                    "%d consecutive failures; returns after %s without failures"
                            .formatted(health.ejectAfter(), Duration.ofNanos(health.recoveryHoldNanos()))));
        }
    }

    /** The Border left the snapshot: it no longer counts as ejected, and nothing it does counts any more. */
    public void forget() {
        forgotten = true;
        if (ejected.compareAndSet(true, false)) {
            health.ejected(false);
        }
    }
}
