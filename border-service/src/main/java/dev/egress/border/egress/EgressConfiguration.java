package dev.egress.border.egress;

import dev.egress.border.config.BorderProperties;
import dev.egress.border.config.HostedIps;
import dev.egress.border.config.LimitsProperties;
import dev.egress.border.config.PoolProperties;
import dev.egress.border.config.TlsProperties;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.ssrf.SsrfGuard;
import dev.egress.border.ssrf.VettingResolverGroup;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the egress path: bound clients (binding is checked here, before anything is announced), admission, service. */
@Configuration(proxyBeanMethods = false)
class EgressConfiguration {

    @Bean(destroyMethod = "close")
    BoundClients boundClients(HostedIps hosted, LimitsProperties limits, PoolProperties pool,
                              VettingResolverGroup resolver, TlsProperties tls) {
        return new BoundClients(hosted, limits, pool, resolver, TargetTls.from(tls));
    }

    @Bean
    Admission admission(HostedIps hosted, LimitsProperties limits) {
        return new Admission(hosted.publicIps(), limits.maxConcurrencyPerIp());
    }

    @Bean
    EgressMetrics egressMetrics(MeterRegistry meters, HostedIps hosted, Admission admission) {
        return new EgressMetrics(meters, hosted.publicIps(), admission);
    }

    @Bean
    EgressService egressService(BoundClients clients, BorderRegistrar registrar, SsrfGuard guard, Admission admission,
                                EgressMetrics metrics, LimitsProperties limits) {
        return new EgressService(clients, registrar, guard, admission, metrics, limits);
    }

    @Bean
    BorderLifecycle borderLifecycle(BorderRegistrar registrar, Admission admission, BorderProperties border,
                                    ApplicationEventPublisher events, BoundClients boundFirst) {
        // boundFirst: registration must never start before every IP was found bindable.
        return new BorderLifecycle(registrar, admission, border, events);
    }
}
