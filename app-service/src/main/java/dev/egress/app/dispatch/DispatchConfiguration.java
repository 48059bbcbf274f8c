package dev.egress.app.dispatch;

import dev.egress.app.config.SecurityProperties;
import dev.egress.app.resilience.BorderBreakers;
import dev.egress.app.resilience.PassiveHealth;
import dev.egress.app.resilience.RetryBudget;
import dev.egress.app.resilience.RouteTraffic;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.RoutingProperties;
import dev.egress.app.trust.AppTrust;
import dev.egress.discovery.RoutingTable;
import dev.egress.discovery.auth.PresentedToken;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.propagation.Propagator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** Wires the dispatch path: Border clients (following the snapshot), dispatcher, idempotency. */
@Configuration(proxyBeanMethods = false)
class DispatchConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DispatchConfiguration.class);

    @Bean(destroyMethod = "close")
    BorderClients borderClients(
            DispatchProperties properties,
            SecurityProperties security,
            JsonMapper json,
            RoutingTable table,
            AppTrust trust,
            MeterRegistry meters,
            ObjectProvider<Propagator> propagator) {
        if (security.internalToken().isEmpty() && security.internalTokenFile().isEmpty()) {
            log.warn("egress.security.internal-token is not set: Borders will refuse App's calls");
        }
        PresentedToken internalToken = security.presentedInternalToken();
        internalToken.register(meters);
        // With tracing on the class path (it is, by default) the caller's trace continues to the Border.
        TraceHeaders trace =
                propagator.stream().findFirst().map(TraceHeaders::propagatedBy).orElse(TraceHeaders.NONE);
        BorderClients clients = new BorderClients(properties, json, internalToken, trust.borderTls(), trace);
        clients.retain(table.current());
        table.addListener(clients::retain);
        return clients;
    }

    @Bean
    DispatchMetrics dispatchMetrics(MeterRegistry meters) {
        return new DispatchMetrics(meters);
    }

    @Bean
    Dispatcher dispatcher(
            EgressRouter router,
            BorderClients clients,
            BorderBreakers breakers,
            PassiveHealth health,
            RetryBudget budget,
            DispatchProperties properties,
            RoutingProperties routing,
            DispatchMetrics metrics,
            JsonMapper json,
            RouteTraffic traffic,
            DeliveryAdmission admission) {
        return new Dispatcher(
                router,
                clients,
                breakers,
                health,
                budget,
                properties,
                routing.retryAfter(),
                metrics,
                json,
                traffic,
                admission);
    }

    @Bean
    TunnelDispatcher tunnelDispatcher(
            EgressRouter router,
            BorderClients clients,
            BorderBreakers breakers,
            PassiveHealth health,
            RetryBudget budget,
            RouteTraffic traffic,
            DispatchProperties properties,
            RoutingProperties routing) {
        return new TunnelDispatcher(
                router, clients, breakers, health, budget, traffic, properties, routing.retryAfter());
    }

    @Bean
    DeliveryAdmission deliveryAdmission(
            DispatchProperties properties, RoutingProperties routing, MeterRegistry meters) {
        return new DeliveryAdmission(
                properties.maxInFlight(), properties.maxInFlightPerTenant(), routing.retryAfter(), meters);
    }

    @Bean
    DeliveryRequestParser deliveryRequestParser() {
        return new DeliveryRequestParser();
    }

    @Bean
    IdempotencyStore idempotencyStore(DispatchProperties properties, MeterRegistry meters) {
        return new IdempotencyStore(properties.idempotency(), System::nanoTime, meters);
    }
}
