package dev.egress.app.resilience;

import dev.egress.discovery.BorderId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Outlier detection from real traffic: {@code ejectAfter} consecutive failed attempts eject a Border;
 * it returns only once {@code recoveryHold} has passed without a failure, so a flapping Border stays
 * out. A success while ejected (panic-mode traffic) resets the failure streak but does not shorten the
 * hold. Borders that leave the snapshot are forgotten.
 */
public final class PassiveHealth {

    private static final Logger log = LoggerFactory.getLogger(PassiveHealth.class);

    private static final class Entry {
        final AtomicInteger consecutiveFailures = new AtomicInteger();
        volatile long lastFailureNanos;
        volatile boolean ejected;
    }

    private final ConcurrentHashMap<BorderId, Entry> entries = new ConcurrentHashMap<>();
    private final int ejectAfter;
    private final long recoveryHoldNanos;
    private final LongSupplier nanoTime;
    private final Counter ejections;

    /**
     * Creates the tracker.
     *
     * @param ejectAfter   consecutive failures that eject a Border (≥ 1)
     * @param recoveryHold failure-free time before an ejected Border returns
     * @param nanoTime     monotonic time source ({@code System::nanoTime} outside tests)
     * @param meters       metrics registry
     */
    public PassiveHealth(int ejectAfter, Duration recoveryHold, LongSupplier nanoTime, MeterRegistry meters) {
        if (ejectAfter < 1) {
            throw new IllegalArgumentException("ejectAfter: %d (expected: >= 1)".formatted(ejectAfter));
        }
        this.ejectAfter = ejectAfter;
        this.recoveryHoldNanos = recoveryHold.toNanos();
        this.nanoTime = nanoTime;
        this.ejections = Counter.builder("egress.border.ejections")
                .description("Borders ejected by passive health").register(meters);
        Gauge.builder("egress.border.ejected", entries, e -> e.values().stream().filter(x -> x.ejected).count())
                .description("Borders currently ejected by passive health").register(meters);
    }

    /**
     * Whether a Border takes traffic. Ends an ejection whose hold has passed.
     *
     * @param border the Border
     * @return false while ejected
     */
    public boolean isHealthy(BorderId border) {
        Entry entry = entries.get(border);
        if (entry == null || !entry.ejected) {
            return true;
        }
        if (nanoTime.getAsLong() - entry.lastFailureNanos >= recoveryHoldNanos) {
            entry.consecutiveFailures.set(0);
            entry.ejected = false;
            log.info("Border {} returns from ejection after {} without failures", border, Duration.ofNanos(recoveryHoldNanos));
            return true;
        }
        return false;
    }

    /**
     * Records a successful attempt.
     *
     * @param border the Border
     */
    public void onSuccess(BorderId border) {
        Entry entry = entries.get(border);
        if (entry != null) {
            entry.consecutiveFailures.set(0);
        }
    }

    /**
     * Records a failed attempt (the Border could not be reached, failed, or timed out).
     *
     * @param border the Border
     */
    public void onFailure(BorderId border) {
        Entry entry = entries.computeIfAbsent(border, b -> new Entry());
        entry.lastFailureNanos = nanoTime.getAsLong();
        if (entry.consecutiveFailures.incrementAndGet() >= ejectAfter && !entry.ejected) {
            entry.ejected = true;
            ejections.increment();
            log.info("Border {} ejected after {} consecutive failures; returns after {} without failures",
                    border, ejectAfter, Duration.ofNanos(recoveryHoldNanos));
        }
    }

    /**
     * Forgets Borders that are no longer live.
     *
     * @param live the Borders in the current snapshot
     */
    public void retain(Collection<BorderId> live) {
        Set<BorderId> keep = Set.copyOf(live);
        entries.keySet().removeIf(border -> !keep.contains(border));
    }
}
