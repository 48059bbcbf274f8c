package dev.egress.app.resilience;

import dev.egress.discovery.registry.BorderId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Outlier detection from real traffic, one {@link Ejection} per Border: {@code ejectAfter} consecutive failed
 * attempts eject a Border; it returns only once {@code recoveryHold} has passed without a failure, so a flapping
 * Border stays out. A success while ejected (panic-mode traffic) resets the failure streak but does not shorten
 * the hold. The owner of the per-Border state (App's fleet) tracks a Border when it joins the snapshot and
 * forgets it when it leaves, so a Border that comes back starts healthy.
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

    private final int ejectAfter;
    private final long recoveryHoldNanos;
    private final LongSupplier nanoTime;
    private final Counter ejections;
    private final AtomicInteger ejected = new AtomicInteger();
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
        Gauge.builder("egress.border.ejected", ejected, AtomicInteger::get)
                .description("Borders currently ejected by passive health")
                .register(meters);
    }

    /**
     * Starts tracking a Border that joined the snapshot.
     *
     * @param border the Border
     * @return its ejection state, healthy
     */
    public Ejection track(BorderId border) {
        return new Ejection(this, border);
    }

    /**
     * Subscribes to ejections and returns (the call path publishes events; consumers decide what to log).
     *
     * @param consumer receives every state change, on the thread that caused it
     */
    public void onStateChange(Consumer<StateChange> consumer) {
        consumers.add(consumer);
    }

    int ejectAfter() {
        return ejectAfter;
    }

    long recoveryHoldNanos() {
        return recoveryHoldNanos;
    }

    long now() {
        return nanoTime.getAsLong();
    }

    /** A Border was ejected (true) or returned or was forgotten while ejected (false). */
    void ejected(boolean in) {
        if (in) {
            ejected.incrementAndGet();
            ejections.increment();
        } else {
            ejected.decrementAndGet();
        }
    }

    void publish(StateChange change) {
        for (Consumer<StateChange> consumer : consumers) {
            try {
                consumer.accept(change);
            } catch (RuntimeException e) {
                // A consumer's failure must never fail a delivery.
            }
        }
    }
}
