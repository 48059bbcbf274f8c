package dev.egress.border.egress;

import dev.egress.border.BorderProperties;
import dev.egress.border.HostedIps;
import dev.egress.border.decisions.DecisionKeeper;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.ssrf.SsrfGuard;
import dev.egress.border.ssrf.VettingResolverGroup;
import dev.egress.discovery.trust.TlsProvider;
import dev.egress.discovery.web.problem.CallKind;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Wires the egress path: the hosted IPs, bound clients (binding is checked here, before anything is
 * announced), admission, service, and the request size the forward endpoint decodes.
 */
@Configuration(proxyBeanMethods = false)
class EgressConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EgressConfiguration.class);

    @Bean
    HostedIps hostedIps(BorderProperties border) {
        HostedIps ips = HostedIps.parse(
                border.ips(), border.allowLoopbackIps() ? HostedIps.Loopback.ALLOWED : HostedIps.Loopback.REFUSED);
        log.info("Dedicated IPs (bind=public where they differ): {}", ips);
        if (border.allowLoopbackIps()) {
            log.warn("egress.border.allow-loopback-ips is set: loopback addresses are accepted as dedicated IPs"
                    + " (local runs only; targets elsewhere never see them)");
        }
        return ips;
    }

    @Bean
    WebFluxConfigurer requestSizeCodecs(LimitsProperties limits) {
        // The forward body travels base64-encoded inside a JSON envelope (4/3 of its size, an older App's
        // escaped text more): leave headroom here and enforce the exact cap on the decoded body, so both
        // limits answer 413.
        long envelope = Math.min(Integer.MAX_VALUE, limits.maxRequestBody().toBytes() * 2 + 256 * 1024);
        return new WebFluxConfigurer() {
            @Override
            public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
                configurer.defaultCodecs().maxInMemorySize((int) envelope);
            }
        };
    }

    @Bean(destroyMethod = "close")
    BoundClients boundClients(
            HostedIps hosted,
            LimitsProperties limits,
            PoolProperties pool,
            VettingResolverGroup resolver,
            TlsProperties tls,
            TlsProvider.Choice tlsProvider) {
        return new BoundClients(hosted, limits, pool, resolver, TargetTls.from(tls, tlsProvider));
    }

    @Bean
    Admission admission(HostedIps hosted, LimitsProperties limits, TunnelProperties tunnel) {
        return new Admission(
                hosted.publicIps(),
                Map.of(CallKind.FORWARD, limits.maxConcurrencyPerIp(), CallKind.TUNNEL, tunnel.maxPerIp()),
                Map.of(CallKind.TUNNEL, tunnel.tunnelsInAll()),
                tunnel.tunnelsPerTenant());
    }

    @Bean
    GateMetrics gateMetrics(MeterRegistry meters, HostedIps hosted, Admission admission) {
        return new GateMetrics(meters, hosted.publicIps(), admission);
    }

    @Bean
    EgressGate egressGate(
            HostedIps hosted,
            BorderRegistrar registrar,
            SsrfGuard guard,
            Admission admission,
            GateMetrics metrics,
            ObjectProvider<Clock> clock) {
        // A test may hand in its own clock; the deadline is wall-clock time, as App's Egress-Deadline is.
        return new EgressGate(hosted, registrar, guard, admission, metrics, clock.getIfAvailable(Clock::systemUTC));
    }

    @Bean
    EgressService egressService(
            BoundClients clients,
            EgressGate gate,
            GateMetrics metrics,
            BorderRegistrar registrar,
            LimitsProperties limits) {
        return new EgressService(
                clients, gate, metrics, registrar.current().borderId().value(), limits);
    }

    @Bean
    BorderLifecycle borderLifecycle(
            BorderRegistrar registrar,
            DecisionKeeper decisions,
            Admission admission,
            BorderProperties border,
            ApplicationEventPublisher events,
            BoundClients boundFirst) {
        // boundFirst: registration must never start before every IP was found bindable.
        return new BorderLifecycle(registrar, decisions, admission, border, events);
    }
}
