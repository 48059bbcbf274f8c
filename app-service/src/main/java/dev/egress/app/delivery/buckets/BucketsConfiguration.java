package dev.egress.app.delivery.buckets;

import dev.egress.discovery.files.WatchedFile;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
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
            StoreAccess store, BucketProperties buckets, WorkerIdentity worker, MeterRegistry meters) {
        BucketOwnership ownership = BucketOwnership.start(new BucketSettings(
                store.connectionString(),
                token(store),
                buckets.node(),
                buckets.count(),
                worker.resolved(),
                buckets.sessionTimeout(),
                buckets.checkInterval()));
        Gauge.builder("egress.durable.buckets.owned", ownership, BucketOwnership::count)
                .description("Delivery buckets this App holds (its share of egress.delivery.buckets.count)")
                .register(meters);
        return ownership;
    }

    private static @Nullable Supplier<String> token(StoreAccess store) {
        String fixed = store.token();
        if (fixed != null && !fixed.isBlank()) {
            return () -> fixed;
        }
        Path file = store.tokenFile();
        if (file == null) {
            return null;
        }
        return WatchedFile.of("egress.delivery.store.token-file", file, BucketsConfiguration::token)
                .checkWhenRead(Duration.ZERO);
    }

    private static String token(byte[] content) {
        String read = new String(content, StandardCharsets.UTF_8).strip();
        if (read.isEmpty()) {
            throw new IllegalArgumentException("the file is empty");
        }
        return read;
    }
}
