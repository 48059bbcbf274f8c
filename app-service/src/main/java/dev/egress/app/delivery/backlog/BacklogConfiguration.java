package dev.egress.app.delivery.backlog;

import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.buckets.BucketProperties;
import dev.egress.app.tenants.TenantPolicyStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The backlog sampler when durable delivery is on ({@code egress.delivery.store.connection-string} set). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("!'${egress.delivery.store.connection-string:}'.isBlank()")
class BacklogConfiguration {

    @Bean(destroyMethod = "close")
    BacklogSampler backlogSampler(
            ObjectProvider<DeliveryStore> store,
            TenantPolicyStore tenants,
            BucketProperties buckets,
            BacklogProperties properties,
            Clock clock,
            MeterRegistry meters) {
        BacklogSampler sampler = new BacklogSampler(
                store::getIfAvailable,
                () -> Set.copyOf(tenants.current().tenants().keySet()),
                buckets.count(),
                properties,
                clock,
                meters);
        sampler.start();
        return sampler;
    }
}
