package dev.egress.border.registration;

import dev.egress.border.BorderProperties;
import dev.egress.border.HostedIps;
import dev.egress.border.trust.TrustMode;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.BorderRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the registrar, which publishes this Border's announcement through the {@link BorderRegistry}
 * (registry-ydb's registry auto-configuration), and the readiness indicator that follows it.
 */
@Configuration(proxyBeanMethods = false)
class RegistrationConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RegistrationConfiguration.class);

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
        BorderRegistrar registrar = new BorderRegistrar(registry, initial);
        IpStatusGauges.bind(registrar, meters);
        return registrar;
    }

    /** Republishes within the signed window; nothing to do for unsigned announcements, which never expire. */
    @Bean
    AnnouncementRefresh announcementRefresh(AnnouncementWriter writer, ObjectProvider<BorderRegistrar> registrar) {
        return writer.validity()
                .map(validity -> AnnouncementRefresh.every(validity, registrar::getIfAvailable))
                .orElseGet(AnnouncementRefresh::none);
    }

    /**
     * A rotated certificate is announced at once: the registrar republishes the announcement, which the writer
     * signs with the new certificate (an App would otherwise see the old chain until the next refresh).
     */
    @Bean
    SmartInitializingSingleton rotationRepublish(TrustMode mode, ObjectProvider<BorderRegistrar> registrar) {
        return () -> mode.material()
                .ifPresent(material -> material.identity()
                        .onChange(next ->
                                registrar.ifAvailable(r -> r.republish().whenComplete((published, failure) -> {
                                    if (failure == null) {
                                        log.info(
                                                "Republished the announcement signed with the rotated certificate (generation {})",
                                                published.generation());
                                    } else {
                                        log.warn(
                                                "Could not republish after a certificate rotation: {}",
                                                failure.toString());
                                    }
                                }))));
    }

    @Bean("registration")
    RegistrationHealthIndicator registrationHealthIndicator(BorderRegistrar registrar) {
        return new RegistrationHealthIndicator(registrar);
    }
}
