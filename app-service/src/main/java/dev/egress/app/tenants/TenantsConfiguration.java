package dev.egress.app.tenants;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the tenant policy store and its health indicator. */
@Configuration(proxyBeanMethods = false)
class TenantsConfiguration {

    @Bean(destroyMethod = "close")
    TenantPolicyStore tenantPolicyStore(TenantsProperties properties, MeterRegistry meters, Clock clock) {
        return new TenantPolicyStore(properties, meters, clock);
    }

    @Bean
    TenantsHealthIndicator tenantsHealthIndicator(TenantPolicyStore store) {
        return new TenantsHealthIndicator(store);
    }
}
