package dev.egress.border.decisions;

import dev.egress.border.BorderProperties;
import dev.egress.border.HostedIps;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.trust.TrustMode;
import dev.egress.border.trust.TrustProperties;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.BorderRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
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
            TrustMode trust,
            TrustProperties trustProperties,
            MeterRegistry meters) {
        // Signed with the Border's key on the trust chain; a record signed before a rotation chains to the App CA.
        DecisionRecords records = trust.material()
                .map(t -> DecisionRecords.signed(
                        t.identity(), t.appCa(), trustProperties.domain(), properties.acceptUnsignedRecord()))
                .orElseGet(DecisionRecords::unsigned);
        return new DecisionKeeper(
                registry.decisions(BorderId.of(border.id())),
                records,
                properties.stateFile().isEmpty() ? null : Path.of(properties.stateFile()),
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
