package dev.egress.app.delivery.buckets;

import dev.egress.app.delivery.DeliveryStoreProperties;
import dev.egress.app.delivery.DurableProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Bucket ownership when durable delivery is on ({@code egress.delivery.store.connection-string} set): the {@link
 * BucketOwnership} bean is the App's {@link dev.egress.app.delivery.OwnedBuckets}, which the workers take; without
 * it they work every bucket. Its gauge {@code egress.durable.buckets.owned} counts the buckets this App holds.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("!'${egress.delivery.store.connection-string:}'.isBlank()")
class BucketsConfiguration {

    @Bean(destroyMethod = "close")
    BucketOwnership bucketOwnership(
            DeliveryStoreProperties store, BucketProperties buckets, DurableProperties worker, MeterRegistry meters) {
        BucketOwnership ownership = BucketOwnership.start(new BucketSettings(
                store.connectionString(),
                store.tokenSource(),
                buckets.node(),
                buckets.count(),
                worker.workerId(),
                buckets.sessionTimeout(),
                buckets.checkInterval()));
        Gauge.builder("egress.durable.buckets.owned", ownership, BucketOwnership::count)
                .description("Delivery buckets this App holds (its share of egress.delivery.buckets.count)")
                .register(meters);
        return ownership;
    }
}
