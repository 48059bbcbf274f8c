package dev.egress.app.resilience;

import dev.egress.discovery.BorderId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Outlier detection from real traffic: {@code ejectAfter} consecutive failed attempts eject a Border;
 * it returns only once {@code recoveryHold} has passed without a failure, so a flapping Border stays
 * out. A success while ejected (panic-mode traffic) resets the failure streak but does not shorten the
 * hold. Borders that leave the snapshot are forgotten.
 */
public final class PassiveHealth {

    /**
     * A Border entering or leaving ejection, published to {@link #onStateChange} consumers.
     *
     * @param border  the Border
     * @param ejected true when it was ejected, false when it returned
     * @param reason  why, in words (for logs)
     */
    public record StateChange(BorderId border, boolean ejected, String reason) {}

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
    private final List<Consumer<StateChange>> consumers = new CopyOnWriteArrayList<>();

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
                .description("Borders ejected by passive health")
                .register(meters);
        Gauge.builder(
                        "egress.border.ejected",
                        entries,
                        e -> e.values().stream().filter(x -> x.ejected).count())
                .description("Borders currently ejected by passive health")
                .register(meters);
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
            publish(new StateChange(
                    border, false, "%s without failures".formatted(Duration.ofNanos(recoveryHoldNanos))));
            return true;
        }
        return false;
    }

    /**
     * Whether a Border is ejected now, for operators. Unlike {@link #isHealthy} it never ends an
     * ejection: a read-only view must not change what the call path sees.
     *
     * @param border the Border
     * @return true while ejected and its hold has not passed
     */
    public boolean isEjected(BorderId border) {
        Entry entry = entries.get(border);
        return entry != null && entry.ejected && nanoTime.getAsLong() - entry.lastFailureNanos < recoveryHoldNanos;
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
            publish(new StateChange(
                    border,
                    true,
                    "%d consecutive failures; returns after %s without failures"
                            .formatted(ejectAfter, Duration.ofNanos(recoveryHoldNanos))));
        }
    }

    /**
     * Subscribes to ejections and returns (the call path publishes events; consumers decide what to log).
     *
     * @param consumer receives every state change, on the thread that caused it
     */
    public void onStateChange(Consumer<StateChange> consumer) {
        consumers.add(consumer);
    }

    private void publish(StateChange change) {
        for (Consumer<StateChange> consumer : consumers) {
            try {
                consumer.accept(change);
            } catch (RuntimeException e) {
                // A consumer's failure must never fail a delivery.
            }
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
