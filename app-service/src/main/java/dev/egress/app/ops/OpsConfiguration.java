package dev.egress.app.ops;

import dev.egress.app.config.SecurityProperties;
import dev.egress.app.delivery.backlog.BacklogSampler;
import dev.egress.app.fleet.BorderFleet;
import dev.egress.app.routing.ClaimsSync;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.RoutingProperties;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.discovery.registry.RoutingTable;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires the operator side of App: fleet views, fleet-wide IP changes, their metrics, and the operator
 * page at {@code /ops/} (static assets from {@code classpath:/static/ops/}; its scripts call
 * {@code /ops/v1/**} with the token the operator enters).
 */
@Configuration(proxyBeanMethods = false)
class OpsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(OpsConfiguration.class);

    @Bean
    FleetViews fleetViews(
            RoutingTable table,
            TenantPolicyStore tenants,
            EgressRouter router,
            RoutingProperties routing,
            BorderFleet fleet,
            Clock clock,
            ObjectProvider<BacklogSampler> backlog) {
        // Durable delivery's counts when it is on (the sampler exists only then).
        return new FleetViews(
                table,
                tenants,
                router,
                routing,
                fleet,
                clock,
                () -> Optional.ofNullable(backlog.getIfAvailable()).flatMap(BacklogSampler::last));
    }

    @Bean
    FleetMetrics fleetMetrics(FleetViews views, RoutingTable table, MeterRegistry meters) {
        return new FleetMetrics(views, table, meters);
    }

    @Bean
    IpStatusChanges ipStatusChanges(
            RoutingTable table, BorderFleet fleet, JsonMapper json, OpsProperties ops, SecurityProperties security) {
        if (security.operatorToken().isEmpty()) {
            log.warn("egress.security.operator-token is not set: the operator API /ops/v1/** answers 401");
        }
        return new IpStatusChanges(table, new IpStatusCall(fleet), json, ops.changeTimeout());
    }

    @Bean
    IpMoves ipMoves(
            RoutingTable table,
            ClaimsSync claims,
            BorderFleet fleet,
            IpStatusChanges changes,
            JsonMapper json,
            OpsProperties ops) {
        return new IpMoves(table, claims, new IpStatusCall(fleet), changes, json, ops.changeTimeout());
    }

    @Bean
    RouterFunction<ServerResponse> opsPage() {
        Resource index = new ClassPathResource("static/ops/index.html");
        return RouterFunctions.route()
                .GET(
                        "/ops",
                        request -> ServerResponse.permanentRedirect(URI.create("/ops/"))
                                .build())
                .GET(
                        "/ops/",
                        // Its security headers come from OpsPageHeaders, as for every other path of the page.
                        request -> ServerResponse.ok()
                                .contentType(MediaType.TEXT_HTML)
                                .bodyValue(index))
                .build();
    }

    @Bean
    OpsPageHeaders opsPageHeaders() {
        return new OpsPageHeaders();
    }

    /** The operator API on its own port ({@code egress.ops.port}); without it, nothing here exists. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "egress.ops.port")
    static class OwnPort {

        @Bean
        OpsListener opsListener(
                OpsProperties ops,
                ServerProperties server,
                SslBundles bundles,
                ObjectProvider<NettyServerCustomizer> customizers,
                ObjectProvider<HttpHandler> handler) {
            return new OpsListener(
                    ops.port(),
                    server.getSsl(),
                    bundles,
                    customizers.orderedStream().toList(),
                    handler::getObject);
        }

        @Bean
        OpsPortFilter opsPortFilter(OpsProperties ops) {
            return new OpsPortFilter(ops.port());
        }
    }
}
