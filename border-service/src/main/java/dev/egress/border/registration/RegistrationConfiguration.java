package dev.egress.border.registration;

import dev.egress.border.egress.HostedIps;
import dev.egress.discovery.AnnouncedIp;
import dev.egress.discovery.Announcement;
import dev.egress.discovery.AnnouncementWriter;
import dev.egress.discovery.BorderId;
import dev.egress.discovery.registry.BorderRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the registrar, which publishes this Border's announcement through the {@link BorderRegistry}
 * (registry-ydb's registry auto-configuration), and the readiness indicator that follows it.
 */
@Configuration(proxyBeanMethods = false)
class RegistrationConfiguration {

    @Bean
    BorderRegistrar borderRegistrar(
            BorderRegistry registry,
            BorderProperties border,
            HostedIps hosted,
            AnnouncementWriter writer,
            MeterRegistry meters) {
        List<AnnouncedIp> ips = hosted.bindByPublic().entrySet().stream()
                .map(e -> new AnnouncedIp(e.getKey(), e.getValue(), border.initialStatus()))
                .toList();
        Announcement initial = Announcement.initial(
                        BorderId.of(border.id()), border.advertisedUrl(), ips, Instant.now())
                // The signed window is part of the announcement, so the local copy is what Apps read.
                .withValidity(writer.validity().orElse(null));
        return new BorderRegistrar(registry, initial, meters);
    }

    @Bean("registration")
    RegistrationHealthIndicator registrationHealthIndicator(BorderRegistrar registrar) {
        return new RegistrationHealthIndicator(registrar);
    }
}
