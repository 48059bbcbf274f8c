package dev.egress.border.tunnel;

import dev.egress.border.BorderProperties;
import dev.egress.border.HostedIps;
import dev.egress.border.egress.InFlightCalls;
import dev.egress.border.egress.LimitsProperties;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.ssrf.SsrfGuard;
import dev.egress.border.ssrf.VettingResolverGroup;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the tunnel endpoint beside the forward endpoint, on the same port, door and guard. */
@Configuration(proxyBeanMethods = false)
class TunnelConfiguration {

    @Bean
    OpenTunnels openTunnels(HostedIps hosted, TunnelProperties tunnel, BorderProperties border) {
        return new OpenTunnels(hosted.publicIps(), tunnel.maxPerIp(), border.drainTimeout());
    }

    @Bean
    TunnelMetrics tunnelMetrics(MeterRegistry meters, HostedIps hosted, OpenTunnels open) {
        return new TunnelMetrics(meters, hosted.publicIps(), open);
    }

    @Bean
    TunnelService tunnelService(
            HostedIps hosted,
            BorderRegistrar registrar,
            InFlightCalls calls,
            SsrfGuard guard,
            VettingResolverGroup resolver,
            OpenTunnels open,
            TunnelMetrics metrics,
            LimitsProperties limits) {
        return new TunnelService(hosted, registrar, calls, guard, resolver, open, metrics, limits.connectTimeout());
    }
}
