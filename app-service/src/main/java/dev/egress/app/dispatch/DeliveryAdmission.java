package dev.egress.app.dispatch;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admission control in front of the Borders: at most {@code max-in-flight} deliveries in this App, and
 * at most {@code max-in-flight-per-tenant} of one tenant. The Borders limit concurrency per IP only, so
 * without this one tenant whose endpoint trickles its answers fills every slot of a shared IP and
 * starves its neighbours; here that tenant alone is refused (429 {@code too-many-in-flight}) before any
 * Border is contacted. A refused delivery costs a map update and nothing else.
 *
 * <p>Per-tenant counters exist only while a tenant has deliveries in flight (removed at zero), so the map
 * is bounded by {@code max-in-flight}, not by how many tenant ids were ever seen.
 */
final class DeliveryAdmission {

    /**
     * A place taken by one delivery; {@link #release()} gives it back, once, however often it is called.
     */
    final class Permit {
        private final String tenantId;
        private final AtomicBoolean released = new AtomicBoolean();

        private Permit(String tenantId) {
            this.tenantId = tenantId;
        }

        /** Gives the place back; later calls do nothing (success, error and cancel may all arrive). */
        void release() {
            if (released.compareAndSet(false, true)) {
                perTenant.computeIfPresent(tenantId, (id, count) -> count == 1 ? null : count - 1);
                inFlight.decrementAndGet();
            }
        }
    }

    private final int maxInFlight;
    private final int maxPerTenant;
    private final Duration retryAfter;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ConcurrentHashMap<String, Integer> perTenant = new ConcurrentHashMap<>();
    private final Counter refusedGlobal;
    private final Counter refusedTenant;

    DeliveryAdmission(int maxInFlight, int maxPerTenant, Duration retryAfter, MeterRegistry meters) {
        this.maxInFlight = maxInFlight;
        this.maxPerTenant = maxPerTenant;
        this.retryAfter = retryAfter;
        Gauge.builder("egress.dispatch.in.flight", inFlight, AtomicInteger::get)
                .description("Deliveries admitted and not finished in this App")
                .register(meters);
        this.refusedGlobal = refusedCounter(meters, TooManyInFlightException.Limit.GLOBAL);
        this.refusedTenant = refusedCounter(meters, TooManyInFlightException.Limit.TENANT);
    }

    private static Counter refusedCounter(MeterRegistry meters, TooManyInFlightException.Limit limit) {
        return Counter.builder("egress.dispatch.admission.refused")
                .tag("limit", limit.tag())
                .description("Deliveries refused with 429 too-many-in-flight, by the limit that was reached")
                .register(meters);
    }

    /**
     * Takes a place for one delivery of a tenant.
     *
     * @param tenantId a tenant of the current policy (unknown ids never get here)
     * @return the permit to release when the delivery ends, however it ends
     * @throws TooManyInFlightException when either limit is reached; nothing is taken then
     */
    Permit admit(String tenantId) {
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            refusedGlobal.increment();
            throw new TooManyInFlightException(TooManyInFlightException.Limit.GLOBAL, maxInFlight, retryAfter);
        }
        boolean[] admitted = {false};
        perTenant.compute(tenantId, (id, count) -> {
            int current = count == null ? 0 : count;
            if (current >= maxPerTenant) {
                return count;
            }
            admitted[0] = true;
            return current + 1;
        });
        if (!admitted[0]) {
            inFlight.decrementAndGet();
            refusedTenant.increment();
            throw new TooManyInFlightException(TooManyInFlightException.Limit.TENANT, maxPerTenant, retryAfter);
        }
        return new Permit(tenantId);
    }

    /**
     * Deliveries in flight in this App.
     *
     * @return the count
     */
    int inFlight() {
        return inFlight.get();
    }

    /**
     * Deliveries in flight for one tenant.
     *
     * @param tenantId the tenant
     * @return the count, 0 when none
     */
    int inFlight(String tenantId) {
        return perTenant.getOrDefault(tenantId, 0);
    }

    /**
     * Tenants with deliveries in flight (the size of the per-tenant map).
     *
     * @return the count
     */
    int tenantsInFlight() {
        return perTenant.size();
    }
}
