package dev.egress.app.delivery.buckets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.delivery.DeliveryStoreProperties;
import dev.egress.app.delivery.DurableProperties;
import dev.egress.app.delivery.OwnedBuckets;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Bucket ownership is wired only when durable delivery is on, and then holds every bucket of a lone App. */
class BucketsConfigurationTest {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withUserConfiguration(Meters.class, BucketsConfiguration.class);

    @Test
    void offWithoutAStore() {
        runner.run(context -> assertThat(context).doesNotHaveBean(OwnedBuckets.class));
        runner.withPropertyValues("egress.delivery.store.connection-string=")
                .run(context -> assertThat(context).doesNotHaveBean(OwnedBuckets.class));
    }

    @Test
    void aLoneAppHoldsEveryBucketAndCountsThem() {
        try (EmbeddedCoordinationNode node = EmbeddedCoordinationNode.start(0)) {
            runner.withPropertyValues(
                            "egress.delivery.store.connection-string=" + node.connectionString(),
                            "egress.delivery.buckets.count=8",
                            "egress.delivery.buckets.check-interval=100ms",
                            "egress.delivery.worker-id=app-test")
                    .run(context -> {
                        OwnedBuckets owned = context.getBean(OwnedBuckets.class);
                        await().atMost(10, TimeUnit.SECONDS)
                                .untilAsserted(
                                        () -> assertThat(owned.current()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7));
                        MeterRegistry meters = context.getBean(MeterRegistry.class);
                        assertThat(meters.get("egress.durable.buckets.owned")
                                        .gauge()
                                        .value())
                                .isEqualTo(8.0);
                    });
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({DeliveryStoreProperties.class, BucketProperties.class, DurableProperties.class})
    static class Meters {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }
}
