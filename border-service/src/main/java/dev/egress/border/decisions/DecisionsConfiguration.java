package dev.egress.border.decisions;

import dev.egress.border.BorderProperties;
import dev.egress.border.HostedIps;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.BorderRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the keeper of this Border's operator decisions, on the registry's record of this Border. */
@Configuration(proxyBeanMethods = false)
class DecisionsConfiguration {

    @Bean(destroyMethod = "close")
    DecisionKeeper decisionKeeper(
            BorderRegistry registry,
            BorderProperties border,
            HostedIps hosted,
            BorderRegistrar registrar,
            DecisionsProperties properties,
            MeterRegistry meters) {
        return new DecisionKeeper(
                registry.decisions(BorderId.of(border.id())),
                registrar,
                hosted.publicIps(),
                border.initialStatus(),
                properties.readTimeout(),
                meters);
    }

    @Bean("decisions")
    DecisionsHealthIndicator decisionsHealthIndicator(DecisionKeeper keeper) {
        return new DecisionsHealthIndicator(keeper);
    }
}
