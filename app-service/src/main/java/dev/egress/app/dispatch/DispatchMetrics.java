package dev.egress.app.dispatch;

import dev.egress.app.attempts.AttemptEvents;
import dev.egress.app.routing.NoEgressReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Delivery metrics: {@code egress.deliveries} (timer with histogram, by outcome and tenant class),
 * {@code egress.delivery.attempts} (by outcome), {@code egress.delivery.retries},
 * {@code egress.delivery.retry.budget.exhausted}, {@code egress.delivery.refused} (no egress, by tenant
 * class and reason) and {@code egress.border.faults} (by border and reason). Meters are cached so the request path does a map lookup, not a registration.
 */
final class DispatchMetrics implements AttemptEvents {

    private final MeterRegistry meters;
    private final ConcurrentHashMap<String, Timer> deliveries = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> attempts = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> refusals = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> borderFaults = new ConcurrentHashMap<>();
    private final Counter retries;
    private final Counter budgetExhausted;

    DispatchMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.retries = Counter.builder("egress.delivery.retries")
                .description("Attempts moved to another Border after a failure that did not reach the target")
                .register(meters);
        this.budgetExhausted = Counter.builder("egress.delivery.retry.budget.exhausted")
                .description("Retries refused because the retry budget was spent")
                .register(meters);
    }

    void delivery(String outcome, String tenantClass, long nanos) {
        deliveries
                .computeIfAbsent(
                        outcome + '|' + tenantClass,
                        k -> Timer.builder("egress.deliveries")
                                .description("Deliveries by outcome and tenant class, with latency")
                                .tag("outcome", outcome)
                                .tag("tenant_class", tenantClass)
                                .publishPercentileHistogram()
                                .register(meters))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void attempt(String outcome) {
        attempts.computeIfAbsent(
                        outcome,
                        k -> Counter.builder("egress.delivery.attempts")
                                .description("Border calls by outcome")
                                .tag("outcome", outcome)
                                .register(meters))
                .increment();
    }

    void refused(String tenantClass, NoEgressReason why) {
        String reason = why.code();
        refusals.computeIfAbsent(
                        tenantClass + '|' + reason,
                        k -> Counter.builder("egress.delivery.refused")
                                .description("Deliveries refused with no-egress-available")
                                .tag("tenant_class", tenantClass)
                                .tag("reason", reason)
                                .register(meters))
                .increment();
    }

    @Override
    public void borderFault(String borderId, String reason) {
        borderFaults
                .computeIfAbsent(
                        borderId + '|' + reason,
                        k -> Counter.builder("egress.border.faults")
                                .description(
                                        "Border answers in breach of the contract (e.g. another source IP than asked)")
                                .tag("border", borderId)
                                .tag("reason", reason)
                                .register(meters))
                .increment();
    }

    @Override
    public void retry() {
        retries.increment();
    }

    @Override
    public void budgetExhausted() {
        budgetExhausted.increment();
    }
}
