package dev.egress.app.delivery.api;

import dev.egress.app.attempts.ForwardAttempts;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.DeliveryStoreProperties;
import dev.egress.app.delivery.DurableProperties;
import dev.egress.app.delivery.OwnedBuckets;
import dev.egress.app.delivery.Retention;
import dev.egress.app.delivery.RetryProperties;
import dev.egress.app.delivery.worker.DeliveryWorkers;
import dev.egress.app.delivery.worker.DurableMetrics;
import dev.egress.app.delivery.worker.WorkerFactory;
import dev.egress.app.delivery.ydb.DeliveryTables;
import dev.egress.app.routing.ClaimRecords;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.signing.WebhookSigner;
import dev.egress.app.tenants.TenantPolicyStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires durable delivery when {@code egress.delivery.store.connection-string} is set: the store on YDB tables (created
 * when missing), the workers, the asynchronous form of {@code POST /v1/deliveries}, and the synchronous form's
 * {@code Idempotency-Key} kept in the store ({@link SyncRecords}), and routing's claims table on the same connection
 * ({@link ClaimRecords}, which routing's {@code ClaimsSync} keeps in step). Without it nothing here
 * exists, and the API's controllers answer {@code durable-delivery-off}. The buckets this App works come from an
 * {@link OwnedBuckets} bean when one exists (bucket ownership), else every bucket.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("!'${egress.delivery.store.connection-string:}'.isBlank()")
class DurableConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DurableConfiguration.class);

    @Bean(destroyMethod = "close")
    DeliveryTables deliveryTables(DeliveryStoreProperties store) {
        DeliveryTables tables = DeliveryTables.open(
                store.connectionString(),
                store.tablePrefix(),
                Retention.DEFAULT,
                store.sessions(),
                store.tokenSource());
        log.info("Durable delivery on: store {} (tables prefixed '{}')", store.connectionString(), store.tablePrefix());
        return tables;
    }

    @Bean
    DeliveryStore deliveryStore(DeliveryTables tables) {
        return tables.store();
    }

    @Bean
    ClaimRecords claimRecords(DeliveryTables tables) {
        return tables.claims();
    }

    @Bean
    DurableMetrics durableMetrics(MeterRegistry meters) {
        return new DurableMetrics(meters);
    }

    @Bean
    DeliveryWorkers deliveryWorkers(
            DeliveryStore store,
            ForwardAttempts forwards,
            EgressRouter router,
            TenantPolicyStore tenants,
            WebhookSigner signer,
            RetryProperties retry,
            DurableMetrics metrics,
            ObjectProvider<OwnedBuckets> owned,
            @Value("${egress.delivery.buckets.count:64}") int buckets,
            DurableProperties properties) {
        OwnedBuckets working = owned.getIfAvailable(() -> OwnedBuckets.all(buckets));
        return WorkerFactory.workers(store, forwards, router, tenants, signer, retry, metrics, working, properties);
    }

    @Bean
    SyncRecords syncRecords(
            DeliveryStore store,
            @Value("${egress.delivery.buckets.count:64}") int buckets,
            DurableProperties properties) {
        return new SyncRecords(store, properties.workerId(), properties.lease(), buckets, Clock.systemUTC());
    }

    @Bean
    DurableAcceptance durableAcceptance(
            DeliveryStore store,
            DeliveryWorkers workers,
            TenantPolicyStore tenants,
            WebhookSigner signer,
            DurableMetrics metrics,
            @Value("${egress.delivery.buckets.count:64}") int buckets,
            DurableProperties properties) {
        return new DurableAcceptance(
                store,
                workers,
                tenants,
                signer,
                metrics,
                properties.workerId(),
                properties.lease(),
                buckets,
                Clock.systemUTC());
    }
}
