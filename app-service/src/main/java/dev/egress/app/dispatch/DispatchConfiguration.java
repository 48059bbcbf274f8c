package dev.egress.app.dispatch;

import dev.egress.app.fleet.BorderFleet;
import dev.egress.app.fleet.LinkSettings;
import dev.egress.app.resilience.RetryBudget;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.RoutingProperties;
import dev.egress.app.signing.WebhookSigner;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires the dispatch path: the forward call, the dispatcher, the retry budget, idempotency, and the settings of
 * the fleet's links to Borders (which {@code egress.dispatch.*} holds).
 */
@Configuration(proxyBeanMethods = false)
class DispatchConfiguration {

    @Bean
    LinkSettings borderLinkSettings(DispatchProperties properties) {
        return properties.linkSettings();
    }

    @Bean
    ForwardCall forwardCall(DispatchProperties properties, JsonMapper json, ObjectProvider<Propagator> propagator) {
        // With tracing on the class path (it is, by default) the caller's trace continues to the Border.
        TraceHeaders trace =
                propagator.stream().findFirst().map(TraceHeaders::propagatedBy).orElse(TraceHeaders.NONE);
        return new ForwardCall(properties, json, trace);
    }

    @Bean
    RetryBudget retryBudget(DispatchProperties properties) {
        return new RetryBudget(properties.retryBudgetRatio(), properties.retryBudgetBurst());
    }

    @Bean
    DispatchMetrics dispatchMetrics(MeterRegistry meters) {
        return new DispatchMetrics(meters);
    }

    @Bean
    Dispatcher dispatcher(
            EgressRouter router,
            BorderFleet fleet,
            ForwardCall forward,
            RetryBudget budget,
            DispatchProperties properties,
            RoutingProperties routing,
            DispatchMetrics metrics,
            DeliveryAdmission admission,
            WebhookSigner signer) {
        return new Dispatcher(
                router, fleet, forward, budget, properties, routing.retryAfter(), metrics, admission, signer);
    }

    @Bean
    TunnelDispatcher tunnelDispatcher(
            EgressRouter router,
            BorderFleet fleet,
            RetryBudget budget,
            DispatchProperties properties,
            RoutingProperties routing,
            JsonMapper json) {
        return new TunnelDispatcher(
                router, fleet, new TunnelStream(properties, json), budget, properties, routing.retryAfter());
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
