package dev.egress.border.tunnel;

import dev.egress.border.egress.EgressGate;
import dev.egress.border.egress.GateMetrics;
import dev.egress.border.egress.LimitsProperties;
import dev.egress.border.egress.TunnelProperties;
import dev.egress.border.ssrf.VettingResolverGroup;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the tunnel endpoint beside the forward endpoint, on the same port, door, gate and guard. */
@Configuration(proxyBeanMethods = false)
class TunnelConfiguration {

    @Bean
    TunnelService tunnelService(
            EgressGate gate,
            GateMetrics metrics,
            VettingResolverGroup resolver,
            LimitsProperties limits,
            TunnelProperties tunnels) {
        return new TunnelService(gate, metrics, resolver, limits.connectTimeout(), tunnels.ports());
    }
}
