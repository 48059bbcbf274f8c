package dev.egress.app.dispatch;

import dev.egress.app.attempts.AttemptLoop;
import dev.egress.app.attempts.AttemptProblems;
import dev.egress.app.attempts.ForwardAttempts;
import dev.egress.app.attempts.ForwardCall;
import dev.egress.app.attempts.TraceHeaders;
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
 * Wires the dispatch path: the attempt engine (shared with the proxy's tunnels) under {@code egress.dispatch.*}'s
 * rules, the forward call, the dispatcher, the retry budget, idempotency, and the settings of the fleet's links to
 * Borders (which {@code egress.dispatch.*} holds).
 */
@Configuration(proxyBeanMethods = false)
class DispatchConfiguration {

    @Bean
    LinkSettings borderLinkSettings(DispatchProperties properties) {
        return properties.linkSettings();
    }

    @Bean
    AttemptLoop attemptLoop(
            EgressRouter router,
            BorderFleet fleet,
            RetryBudget budget,
            DispatchProperties properties,
            RoutingProperties routing) {
        AttemptProblems problems =
                new AttemptProblems(properties.attemptTimeout(), properties.overallTimeout(), routing.retryAfter());
        return AttemptLoop.over(router, fleet, budget, problems, properties.attemptPolicy());
    }

    @Bean
    RetryBudget retryBudget(DispatchProperties properties) {
        return new RetryBudget(properties.retryBudgetRatio(), properties.retryBudgetBurst());
    }

    @Bean
    DispatchMetrics dispatchMetrics(MeterRegistry meters) {
        return new DispatchMetrics(meters);
    }

    /** The one way to deliver a webhook: the API's deliveries and durable delivery's attempts both go through it. */
    @Bean
    ForwardAttempts forwardAttempts(
            AttemptLoop loop,
            DispatchProperties properties,
            JsonMapper json,
            ObjectProvider<Propagator> propagator,
            DispatchMetrics metrics) {
        // With tracing on the class path (it is, by default) the caller's trace continues to the Border.
        TraceHeaders trace =
                propagator.stream().findFirst().map(TraceHeaders::propagatedBy).orElse(TraceHeaders.NONE);
        ForwardCall call = ForwardCall.of(properties.attemptPolicy(), json, trace);
        return ForwardAttempts.of(loop, call, metrics);
    }

    @Bean
    Dispatcher dispatcher(
            EgressRouter router,
            ForwardAttempts forwards,
            DispatchProperties properties,
            DispatchMetrics metrics,
            DeliveryAdmission admission,
            WebhookSigner signer) {
        return Dispatcher.of(router, forwards, properties, metrics, admission, signer);
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
