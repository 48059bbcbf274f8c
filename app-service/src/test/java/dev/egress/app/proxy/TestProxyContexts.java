package dev.egress.app.proxy;

import dev.egress.app.config.ApiTokenFilter;
import dev.egress.app.config.SecurityProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.util.unit.DataSize;

/**
 * A proxy's shared parts for tests that never ask for a tunnel (every request they send is refused or answered
 * before one): real properties, limits, token checks and meters; no dispatcher.
 */
final class TestProxyContexts {

    /** The one API token these contexts accept, for any tenant. */
    static final String TOKEN = "global-token";

    private TestProxyContexts() {}

    /**
     * A context with small limits: 4 connections per source still sending their head, 64 in all; buffer budgets of
     * 1 MiB in all and 64 KiB per tenant; a 5 s head deadline.
     *
     * @param meters  where the proxy's meters go
     * @param lookups counted on every destination-claim lookup
     * @return the context
     */
    static ProxyContext of(MeterRegistry meters, AtomicInteger lookups) {
        return of(meters, lookups, List.of());
    }

    /**
     * A context as {@link #of(MeterRegistry, AtomicInteger)}, with ports the operator added.
     *
     * @param meters       where the proxy's meters go
     * @param lookups      counted on every destination-claim lookup
     * @param allowedPorts {@code egress.proxy.allowed-ports}
     * @return the context
     */
    static ProxyContext of(MeterRegistry meters, AtomicInteger lookups, List<String> allowedPorts) {
        ProxyProperties properties = new ProxyProperties(
                true,
                "127.0.0.1",
                0,
                null,
                Duration.ofSeconds(10),
                Duration.ofMinutes(5),
                Duration.ofHours(1),
                8,
                8,
                allowedPorts,
                Duration.ofSeconds(5),
                List.of());
        ProxyLimitsProperties limits = new ProxyLimitsProperties(
                64, 4, DataSize.ofMegabytes(1), DataSize.ofKilobytes(64), Duration.ofSeconds(30));
        ApiTokenFilter tokens = new ApiTokenFilter(
                new SecurityProperties(List.of(TOKEN), "", Map.of(), Map.of(), "internal", "", "", "", false));
        DestinationClaims claims = (host, port) -> {
            lookups.incrementAndGet();
            return Optional.empty();
        };
        TunnelLimits tunnels = new TunnelLimits(properties.maxTunnelsPerTenant(), properties.maxTunnelsPerIp());
        return new ProxyContext(
                properties,
                limits,
                new ProxyAuthenticator(tokens, claims, List.of()),
                null,
                tunnels,
                new ProxyMetrics(meters, tunnels),
                new HeadSlots(limits.headConnections(), limits.headConnectionsPerSource()),
                new TunnelMemory(
                        limits.bufferMemory().toBytes(),
                        limits.bufferMemoryPerTenant().toBytes()));
    }
}
