package dev.egress.app.delivery.worker;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Durable delivery's counters: {@code egress.durable.accepted{tenant}}, {@code egress.durable.attempts{tenant,
 * outcome}} (delivered, retry, dead, lease-lost), {@code egress.durable.delivered{tenant}},
 * {@code egress.durable.dead{tenant}}, {@code egress.durable.lease.expiries} and
 * {@code egress.durable.claim.conflicts}. Tenant ids come from the tenants file, so the tags stay bounded.
 */
public final class DurableMetrics {

    private final MeterRegistry meters;
    private final Counter leaseExpiries;
    private final Counter claimConflicts;

    /**
     * Registers the counters that have no tags.
     *
     * @param meters the registry
     */
    public DurableMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.leaseExpiries = Counter.builder("egress.durable.lease.expiries")
                .description("Claimed durable deliveries whose previous holder's lease had expired")
                .register(meters);
        this.claimConflicts = Counter.builder("egress.durable.claim.conflicts")
                .description("Delivery store transactions run again on a conflict, and claims lost to another App")
                .register(meters);
    }

    /**
     * A delivery was accepted (stored for the first time).
     *
     * @param tenant the tenant
     */
    public void accepted(String tenant) {
        counter("egress.durable.accepted", "Durable deliveries accepted", tenant)
                .increment();
    }

    /**
     * An attempt ended.
     *
     * @param tenant  the tenant
     * @param outcome delivered, retry, dead or lease-lost
     */
    void attempt(String tenant, String outcome) {
        Counter.builder("egress.durable.attempts")
                .description("Durable delivery attempts by outcome")
                .tag("tenant", tenant)
                .tag("outcome", outcome)
                .register(meters)
                .increment();
        if (outcome.equals("delivered")) {
            counter("egress.durable.delivered", "Durable deliveries delivered", tenant)
                    .increment();
        } else if (outcome.equals("dead")) {
            counter("egress.durable.dead", "Durable deliveries given up", tenant)
                    .increment();
        }
    }

    void leaseExpiries(int n) {
        leaseExpiries.increment(n);
    }

    void claimConflicts(int n) {
        claimConflicts.increment(n);
    }

    private Counter counter(String name, String description, String tenant) {
        return Counter.builder(name)
                .description(description)
                .tag("tenant", tenant)
                .register(meters);
    }
}
