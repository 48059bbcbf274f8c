package dev.egress.border.config;

import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.registration.RegistrationHealthIndicator;
import dev.egress.border.ssrf.Cidr;
import dev.egress.border.ssrf.OwnAddresses;
import dev.egress.border.ssrf.SsrfGuard;
import dev.egress.border.ssrf.VettingResolverGroup;
import dev.egress.discovery.AnnouncedIp;
import dev.egress.discovery.Announcement;
import dev.egress.discovery.BorderId;
import dev.egress.discovery.EgressIp;
import dev.egress.discovery.registry.BorderRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import reactor.core.scheduler.Schedulers;

/** Wires the SSRF guard, the registry and the registrar from the validated properties. */
@Configuration(proxyBeanMethods = false)
class BorderConfiguration {

    private static final Logger log = LoggerFactory.getLogger(BorderConfiguration.class);

    @Bean
    OwnAddresses ownAddresses() {
        return new OwnAddresses();
    }

    @Bean
    ApplicationListener<WebServerInitializedEvent> ownPortListener(OwnAddresses own) {
        return event -> own.addListeningPort(event.getWebServer().getPort());
    }

    @Bean
    SsrfGuard ssrfGuard(SsrfProperties ssrf, OwnAddresses own) {
        List<Cidr> allowed = ssrf.allowedRanges().stream().filter(s -> !s.isBlank()).map(Cidr::parse).toList();
        if (allowed.isEmpty()) {
            log.info("SSRF guard: full deny list, no allowed ranges");
        } else {
            log.warn("SSRF guard: ranges exempt from the deny list (egress.ssrf.allowed-ranges): {}", allowed);
        }
        return new SsrfGuard(allowed, own, InetAddress::getAllByName);
    }

    @Bean
    VettingResolverGroup vettingResolverGroup(SsrfGuard guard) {
        // Lookups block: keep them off the event loops.
        return new VettingResolverGroup(guard, task -> Schedulers.boundedElastic().schedule(task));
    }

    @Bean
    BorderRegistrar borderRegistrar(BorderRegistry registry, BorderProperties border, MeterRegistry meters) {
        List<AnnouncedIp> ips = border.ips().stream().map(String::strip).map(EgressIp::of).distinct()
                .map(ip -> new AnnouncedIp(ip, border.initialStatus())).toList();
        Announcement initial = Announcement.initial(BorderId.of(border.id()), border.advertisedUrl(), ips, Instant.now());
        return new BorderRegistrar(registry, initial, meters);
    }

    @Bean("registration")
    RegistrationHealthIndicator registrationHealthIndicator(BorderRegistrar registrar) {
        return new RegistrationHealthIndicator(registrar);
    }

    @Bean
    WebFluxConfigurer requestSizeCodecs(LimitsProperties limits) {
        // The forward body travels inside a JSON envelope (escaping can grow it): leave headroom here and
        // enforce the exact cap on the decoded body, so both limits answer 413.
        long envelope = Math.min(Integer.MAX_VALUE, limits.maxRequestBody().toBytes() * 2 + 256 * 1024);
        return new WebFluxConfigurer() {
            @Override
            public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
                configurer.defaultCodecs().maxInMemorySize((int) envelope);
            }
        };
    }
}
