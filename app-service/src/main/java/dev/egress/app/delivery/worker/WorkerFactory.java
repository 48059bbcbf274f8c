package dev.egress.app.delivery.worker;

import dev.egress.app.attempts.ForwardAttempts;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.DurableProperties;
import dev.egress.app.delivery.OwnedBuckets;
import dev.egress.app.delivery.RetryProperties;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.signing.WebhookSigner;
import dev.egress.app.tenants.TenantPolicyStore;
import java.time.Clock;

/** Builds the workers for the configuration, which lives in another package; the pieces stay package-private. */
public final class WorkerFactory {

    private WorkerFactory() {}

    /**
     * The workers of this App.
     *
     * @param store      the delivery store
     * @param forwards   the attempt engine's deliveries
     * @param router     the tenants' resolutions
     * @param tenants    the tenant policy (each tenant's schedule)
     * @param signer     the Standard Webhooks signer
     * @param retry      the global retry schedule
     * @param metrics    the counters
     * @param buckets    the buckets this App works
     * @param properties {@code egress.delivery.*}
     * @return the workers, not yet started
     */
    public static DeliveryWorkers workers(
            DeliveryStore store,
            ForwardAttempts forwards,
            EgressRouter router,
            TenantPolicyStore tenants,
            WebhookSigner signer,
            RetryProperties retry,
            DurableMetrics metrics,
            OwnedBuckets buckets,
            DurableProperties properties) {
        Clock clock = Clock.systemUTC();
        DurableAttempts attempts =
                new DurableAttempts(store, forwards, router, tenants, signer, retry, metrics, properties, clock);
        return new DeliveryWorkers(store, attempts, buckets, metrics, properties, clock);
    }
}
