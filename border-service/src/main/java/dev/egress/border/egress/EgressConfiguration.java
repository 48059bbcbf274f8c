package dev.egress.border.egress;

import dev.egress.border.config.BorderProperties;
import dev.egress.border.config.LimitsProperties;
import dev.egress.border.config.PoolProperties;
import dev.egress.border.config.TlsProperties;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.ssrf.SsrfGuard;
import dev.egress.border.ssrf.VettingResolverGroup;
import dev.egress.discovery.EgressIp;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the egress path: bound clients (binding is checked here, before anything is announced), admission, service. */
@Configuration(proxyBeanMethods = false)
class EgressConfiguration {

    @Bean(destroyMethod = "close")
    BoundClients boundClients(BorderProperties border, LimitsProperties limits, PoolProperties pool,
                              VettingResolverGroup resolver, TlsProperties tls) {
        return new BoundClients(ips(border), limits, pool, resolver, TargetTls.from(tls));
    }

    @Bean
    Admission admission(BorderProperties border, LimitsProperties limits) {
        return new Admission(ips(border), limits.maxConcurrencyPerIp());
    }

    @Bean
    EgressMetrics egressMetrics(MeterRegistry meters, BorderProperties border, Admission admission) {
        return new EgressMetrics(meters, ips(border), admission);
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

    static List<EgressIp> ips(BorderProperties border) {
        return border.ips().stream().map(String::strip).map(EgressIp::of).distinct().toList();
    }
}
