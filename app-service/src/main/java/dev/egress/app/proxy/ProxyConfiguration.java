package dev.egress.app.proxy;

import dev.egress.app.attempts.AttemptLoop;
import dev.egress.app.config.ApiTokenFilter;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.tenants.Tenant;
import dev.egress.app.tenants.TenantPolicyStore;
import io.micrometer.core.instrument.MeterRegistry;
import javax.net.ssl.SSLException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/** Wires the forward proxy when {@code egress.proxy.enabled=true}; without it there is no listener at all. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "egress.proxy.enabled", havingValue = "true")
class ProxyConfiguration {

    @Bean
    TunnelLimits tunnelLimits(ProxyProperties properties) {
        return new TunnelLimits(properties.maxTunnelsPerTenant(), properties.maxTunnelsPerIp());
    }

    @Bean
    ProxyMetrics proxyMetrics(MeterRegistry meters, TunnelLimits limits) {
        return new ProxyMetrics(meters, limits);
    }

    @Bean
    ProxyServer proxyServer(
            ProxyProperties properties,
            ProxyLimitsProperties limitSettings,
            ApiTokenFilter tokens,
            EgressRouter router,
            AttemptLoop loop,
            JsonMapper json,
            TunnelLimits limits,
            ProxyMetrics metrics,
            TenantPolicyStore tenants,
            ObjectProvider<SslBundles> bundles,
            Environment environment)
            throws SSLException {
        // Read per request from the current policy: a reloaded tenants file moves destinations at once.
        DestinationClaims claims =
                (host, port) -> tenants.current().claimant(host, port).map(Tenant::id);
        ProxyAuthenticator authenticator = new ProxyAuthenticator(tokens, claims, properties.unauthenticatedRanges());
        TunnelDispatcher dispatcher = TunnelDispatcher.of(router, loop, new TunnelStream(loop.policy(), json));
        ProxyContext context = new ProxyContext(
                properties,
                limitSettings,
                authenticator,
                dispatcher,
                limits,
                metrics,
                new HeadSlots(limitSettings.headConnections(), limitSettings.headConnectionsPerSource()),
                new TunnelMemory(
                        limitSettings.bufferMemory().toBytes(),
                        limitSettings.bufferMemoryPerTenant().toBytes()));
        return new ProxyServer(context, tls(properties, bundles, environment));
    }

    private static @Nullable ProxyTls tls(
            ProxyProperties properties, ObjectProvider<SslBundles> bundles, Environment environment)
            throws SSLException {
        if (properties.sslBundle() == null) {
            return null;
        }
        SslBundles available = bundles.getIfAvailable();
        if (available == null) {
            throw new IllegalStateException(
                    "egress.proxy.ssl-bundle: '%s' (expected: a bundle under spring.ssl.bundle.*)"
                            .formatted(properties.sslBundle()));
        }
        return ProxyTls.of(properties.sslBundle(), available, environment);
    }
}
