package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.app.attempts.AttemptResult;
import dev.egress.app.attempts.DeliveryFailedException;
import dev.egress.app.attempts.ForwardAttempts;
import dev.egress.app.attempts.ForwardOutcome;
import dev.egress.app.attempts.Webhook;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.NoEgressAvailableException;
import dev.egress.app.routing.Resolution;
import dev.egress.app.signing.SigningUnavailableException;
import dev.egress.app.signing.WebhookSigner;
import dev.egress.discovery.registry.LogText;
import dev.egress.discovery.registry.RateLimitedLog;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Carries one delivery of the API: admission ({@link DeliveryAdmission}: each delivery holds a place while it runs,
 * so one tenant cannot take every Border slot), the attempts through the one attempt engine
 * ({@link ForwardAttempts}: tenant → allowed IPs → a live Border from the local snapshot → the forward call, with
 * breakers, passive health, time limits and retries that move to another Border only when nothing reached the
 * target), and the answer: the target's response with every attempt, or the problem.
 */
final class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private final EgressRouter router;
    private final ForwardAttempts forwards;
    private final Duration overallTimeout;
    private final DispatchMetrics metrics;
    private final DeliveryAdmission admission;
    private final WebhookSigner signer;
    private final RateLimitedLog refusedTargets = new RateLimitedLog(log, Duration.ofSeconds(10));

    private Dispatcher(
            EgressRouter router,
            ForwardAttempts forwards,
            Duration overallTimeout,
            DispatchMetrics metrics,
            DeliveryAdmission admission,
            WebhookSigner signer) {
        this.router = router;
        this.forwards = forwards;
        this.overallTimeout = overallTimeout;
        this.metrics = metrics;
        this.admission = admission;
        this.signer = signer;
    }

    /**
     * A dispatcher.
     *
     * @param router    the tenants' resolutions
     * @param forwards  the attempt engine's deliveries
     * @param properties {@code egress.dispatch.*}: the overall timeout
     * @param metrics   the delivery metrics
     * @param admission the in-flight limits
     * @param signer    the Standard Webhooks signatures of the tenants that sign
     * @return the dispatcher
     */
    static Dispatcher of(
            EgressRouter router,
            ForwardAttempts forwards,
            DispatchProperties properties,
            DispatchMetrics metrics,
            DeliveryAdmission admission,
            WebhookSigner signer) {
        return new Dispatcher(router, forwards, properties.overallTimeout(), metrics, admission, signer);
    }

    /**
     * Resolves the delivery's tenant against the current policy and snapshot. Done before anything is
     * remembered or admitted, so that a request for an unknown tenant or without egress takes no place
     * anywhere.
     *
     * @param request the validated request
     * @return the tenant's candidate routes
     * @throws dev.egress.app.tenants.UnknownTenantException for a tenant not in the policy
     * @throws NoEgressAvailableException                   when no allowed IP can carry it now
     */
    Resolution resolve(DeliveryRequest request) {
        long start = System.nanoTime();
        try {
            return router.resolve(request.tenantId());
        } catch (NoEgressAvailableException e) {
            metrics.refused(tenantClassOf(request), e.reason());
            metrics.delivery(e.slug(), tenantClassOf(request), System.nanoTime() - start);
            throw e;
        }
    }

    /**
     * Delivers a webhook of a resolved tenant, if admission lets it in; its place is given back when the
     * delivery ends, whether it succeeds, fails or is cancelled.
     *
     * @param request    the validated request
     * @param resolution its tenant's resolution from {@link #resolve}
     * @return the target's answer, or an {@link EgressProblemException} error
     */
    Mono<DeliveryResponse> dispatch(DeliveryRequest request, Resolution resolution) {
        return dispatch(request, resolution, UUID.randomUUID().toString());
    }

    /**
     * Delivers as {@link #dispatch(DeliveryRequest, Resolution)} does, under a given id: a delivery recorded in the
     * durable store before it is sent carries its record's id as {@code webhook-id}.
     *
     * @param request    the validated request
     * @param resolution its tenant's resolution from {@link #resolve}
     * @param id         the delivery's id
     * @return the target's answer, or an {@link EgressProblemException} error
     */
    Mono<DeliveryResponse> dispatch(DeliveryRequest request, Resolution resolution, String id) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            Map<String, String> headers;
            DeliveryAdmission.Permit permit;
            try {
                // Signed once, with the delivery's id: every attempt carries the same webhook-id and signature.
                headers = signer.sign(request.tenantId(), id, request.headers(), request.body());
                permit = admission.admit(request.tenantId());
            } catch (SigningUnavailableException | TooManyInFlightException e) {
                metrics.delivery(e.slug(), resolution.tenantClass(), System.nanoTime() - start);
                return Mono.error(e);
            }
            Webhook webhook = new Webhook(id, resolution, request.url(), request.method(), headers, request.body());
            return forwards.deliver(webhook, System.currentTimeMillis() + overallTimeout.toMillis())
                    .flatMap(outcome -> outcome.delivered()
                            ? Mono.just(response(webhook, outcome))
                            : Mono.error(failure(webhook, outcome)))
                    .doOnSuccess(
                            r -> metrics.delivery("delivered", resolution.tenantClass(), System.nanoTime() - start))
                    .doOnError(EgressProblemException.class, e -> {
                        if (e instanceof NoEgressAvailableException n) {
                            metrics.refused(resolution.tenantClass(), n.reason());
                        }
                        metrics.delivery(e.slug(), resolution.tenantClass(), System.nanoTime() - start);
                    })
                    .doFinally(signal -> permit.release());
        });
    }

    private String tenantClassOf(DeliveryRequest request) {
        Resolution peek = router.peek(request.tenantId());
        return peek == null ? "unknown" : peek.tenantClass();
    }

    private static DeliveryResponse response(Webhook webhook, ForwardOutcome outcome) {
        Route route = outcome.route();
        ForwardResponse answer = outcome.answer();
        DeliveryResponse.TargetResponse target = new DeliveryResponse.TargetResponse(
                answer.status(),
                answer.latencyMs(),
                answer.headers(),
                answer.body() == null || answer.body().isEmpty() ? null : answer.body(),
                answer.bodyTruncated() ? Boolean.TRUE : null,
                null);
        String egressIp =
                answer.sourceIp() != null ? answer.sourceIp() : route.ip().value();
        return new DeliveryResponse(
                webhook.deliveryId(),
                webhook.tenantId(),
                egressIp,
                route.borderId().value(),
                target,
                attempts(outcome));
    }

    /** Nothing reached the target, or it may have and must not be sent again: the problem, with every attempt. */
    private EgressProblemException failure(Webhook webhook, ForwardOutcome outcome) {
        Problem problem = outcome.problem();
        if (problem.type() == ProblemType.TARGET_DENIED) {
            refusedTarget(webhook, outcome.last());
        }
        Problem answer = problem.with("deliveryId", webhook.deliveryId()).with("attempts", attempts(outcome));
        return answer.type() == ProblemType.NO_EGRESS_AVAILABLE
                ? new NoEgressAvailableException(answer)
                : new DeliveryFailedException(answer);
    }

    private static List<DeliveryResponse.Attempt> attempts(ForwardOutcome outcome) {
        return outcome.attempts().stream()
                .map(tried -> new DeliveryResponse.Attempt(
                        tried.route().borderId().value(),
                        tried.route().ip().value(),
                        tried.result().outcome(),
                        tried.result().latencyMs()))
                .toList();
    }

    /**
     * A target the Border's SSRF guard refused. Counted in {@code egress.delivery.attempts} like every
     * outcome, and logged (rate-limited: a caller can send thousands) with the tenant and the reason, so an
     * operator can tell a misconfigured tenant from a probing one.
     */
    private void refusedTarget(Webhook webhook, @Nullable AttemptResult result) {
        refusedTargets.warn(
                "Refused webhook target for tenant '%s': %s (%s)"
                        .formatted(
                                webhook.tenantId(),
                                LogText.escape(String.valueOf(result == null ? null : result.reason())),
                                LogText.escape(String.valueOf(result == null ? null : result.detail()))),
                null);
    }
}
