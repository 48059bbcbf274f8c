package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.app.fleet.BorderFleet;
import dev.egress.app.fleet.BorderHandle;
import dev.egress.app.resilience.RetryBudget;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.NoEgressAvailableException;
import dev.egress.app.routing.Resolution;
import dev.egress.app.signing.SigningUnavailableException;
import dev.egress.app.signing.WebhookSigner;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.LogText;
import dev.egress.discovery.registry.RateLimitedLog;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Carries one delivery: tenant → allowed IPs → a live Border (from the local snapshot only) → the
 * Border's forward call, with one circuit breaker per Border, passive health, time limits per attempt
 * and overall, and retries under a budget that move to another Border only when nothing reached the
 * target. Each attempt asks the {@link BorderFleet} once for the chosen Border's handle (its link, breaker,
 * ejection and traffic). A request that may have reached the target is never sent twice. Each delivery holds a place
 * of {@link DeliveryAdmission} while it runs, so one tenant cannot take every Border slot.
 */
final class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    /** Mutable per-delivery state; touched by one attempt at a time, read by the overall timeout. */
    private static final class Delivery {
        final String id;
        final DeliveryRequest request;
        /** The caller's headers, signed for a signing tenant: the same on every attempt. */
        final Map<String, String> headers;

        final Resolution resolution;
        final long key;
        /** When App gives up on the whole delivery, in epoch millis: no attempt's deadline goes past it. */
        final long overallDeadlineMillis;

        final Set<BorderId> tried = new HashSet<>(4);
        final List<DeliveryResponse.Attempt> attempts = new ArrayList<>(2);
        int sent;
        AttemptResult last;

        Delivery(
                String id,
                DeliveryRequest request,
                Map<String, String> headers,
                Resolution resolution,
                long overallDeadlineMillis) {
            this.overallDeadlineMillis = overallDeadlineMillis;
            this.id = id;
            this.request = request;
            this.headers = headers;
            this.resolution = resolution;
            this.key = mix(request.tenantId().hashCode() * 31L + request.url().hashCode());
        }

        synchronized void record(Route route, AttemptResult result) {
            tried.add(route.borderId());
            attempts.add(new DeliveryResponse.Attempt(
                    route.borderId().value(), route.ip().value(), result.outcome(), result.latencyMs()));
            last = result;
        }

        synchronized List<DeliveryResponse.Attempt> attemptsSoFar() {
            return List.copyOf(attempts);
        }
    }

    private final EgressRouter router;
    private final BorderFleet fleet;
    private final ForwardCall forward;
    private final RetryBudget budget;
    private final DispatchProperties properties;
    private final AttemptProblems problems;
    private final DispatchMetrics metrics;
    private final DeliveryAdmission admission;
    private final WebhookSigner signer;
    private final RateLimitedLog refusedTargets = new RateLimitedLog(log, Duration.ofSeconds(10));

    Dispatcher(
            EgressRouter router,
            BorderFleet fleet,
            ForwardCall forward,
            RetryBudget budget,
            DispatchProperties properties,
            Duration retryAfter,
            DispatchMetrics metrics,
            DeliveryAdmission admission,
            WebhookSigner signer) {
        this.router = router;
        this.fleet = fleet;
        this.forward = forward;
        this.budget = budget;
        this.properties = properties;
        this.problems = new AttemptProblems(properties.attemptTimeout(), properties.overallTimeout(), retryAfter);
        this.metrics = metrics;
        this.admission = admission;
        this.signer = signer;
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
        return Mono.defer(() -> {
            long start = System.nanoTime();
            String id = UUID.randomUUID().toString();
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
            budget.onDelivery();
            Delivery delivery = new Delivery(
                    id,
                    request,
                    headers,
                    resolution,
                    System.currentTimeMillis() + properties.overallTimeout().toMillis());
            return next(delivery)
                    .timeout(properties.overallTimeout())
                    .onErrorMap(TimeoutException.class, e -> failure(delivery, problems.overallTimeout()))
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

    private Mono<DeliveryResponse> next(Delivery delivery) {
        Route route = router.choose(delivery.resolution, delivery.key, delivery.tried, fleet::takesTraffic);
        if (route == null) {
            return Mono.error(exhausted(delivery));
        }
        // Once per attempt: the handle holds the Border's link, breaker, ejection and traffic. Null when the
        // Border left since the candidates were computed; the call then says so without sending anything.
        BorderHandle handle = fleet.handle(route);
        if (handle != null && !handle.breaker().tryAcquirePermission()) {
            // Nothing was sent: move on without spending the retry budget.
            AttemptResult skipped =
                    AttemptResult.failed(AttemptResult.Kind.BREAKER_OPEN, false, "circuit breaker open", 0);
            delivery.record(route, skipped);
            metrics.attempt(skipped.outcome());
            return next(delivery);
        }
        delivery.sent++;
        ForwardRequest request = new ForwardRequest(
                delivery.id,
                route.ip().value(),
                delivery.request.url(),
                delivery.request.method(),
                delivery.headers,
                delivery.request.body());
        long start = System.nanoTime();
        if (handle != null) {
            handle.traffic().started(route.ip());
        }
        return forward.call(handle, route, request, deadline(delivery))
                .map(result -> SourceIpCheck.verify(route, result, metrics))
                .flatMap(result -> {
                    if (handle != null) {
                        handle.traffic().finished(route.ip(), result.outcome(), result.borderFault());
                        account(handle, result, System.nanoTime() - start);
                    }
                    return settle(delivery, route, result);
                });
    }

    /** Records an attempt's result and answers, fails, or moves on to the next attempt. */
    private Mono<DeliveryResponse> settle(Delivery delivery, Route route, AttemptResult result) {
        delivery.record(route, result);
        metrics.attempt(result.outcome());
        if (result.kind() == AttemptResult.Kind.DELIVERED) {
            return Mono.just(response(delivery, route, result.response()));
        }
        if (!result.retryable()) {
            return Mono.error(failure(delivery, result));
        }
        if (delivery.sent >= properties.maxAttempts()) {
            return Mono.error(exhausted(delivery));
        }
        if (!budget.tryRetry()) {
            metrics.budgetExhausted();
            return Mono.error(exhausted(delivery));
        }
        metrics.retry();
        return next(delivery);
    }

    /**
     * The attempt's deadline for the Border: when App gives up on it (its attempt timeout, or the delivery's
     * overall one if sooner), less the margin for clock skew. Epoch millis, read from the wall clock like the
     * Border's check.
     */
    private ForwardDeadline deadline(Delivery delivery) {
        long giveUp = Math.min(
                System.currentTimeMillis() + properties.attemptTimeout().toMillis(), delivery.overallDeadlineMillis);
        return new ForwardDeadline(
                Math.max(0, giveUp - properties.deadlineMargin().toMillis()));
    }

    static void account(BorderHandle handle, AttemptResult result, long nanos) {
        CircuitBreaker breaker = handle.breaker();
        if (result.borderFault()) {
            breaker.onError(nanos, TimeUnit.NANOSECONDS, BorderFailure.INSTANCE);
            handle.ejection().onFailure();
        } else if (result.neutral()) {
            breaker.releasePermission();
        } else {
            breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
            handle.ejection().onSuccess();
        }
    }

    private DeliveryResponse response(Delivery delivery, Route route, ForwardResponse answer) {
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
                delivery.id,
                delivery.request.tenantId(),
                egressIp,
                route.borderId().value(),
                target,
                delivery.attemptsSoFar());
    }

    /** Every candidate was tried or skipped, or retries ran out, and nothing reached the target. */
    private EgressProblemException exhausted(Delivery delivery) {
        return failure(delivery, problems.exhausted(delivery.last, delivery.request.tenantId()));
    }

    /** A result that must not be retried, mapped to the public problem. */
    private EgressProblemException failure(Delivery delivery, AttemptResult result) {
        Problem problem = problems.failure(result, delivery.request.tenantId());
        if (problem.type() == ProblemType.TARGET_DENIED) {
            refusedTarget(delivery, result);
        }
        return failure(delivery, problem);
    }

    /**
     * A target the Border's SSRF guard refused. Counted in {@code egress.delivery.attempts} like every
     * outcome, and logged (rate-limited: a caller can send thousands) with the tenant and the reason, so an
     * operator can tell a misconfigured tenant from a probing one.
     */
    private void refusedTarget(Delivery delivery, AttemptResult result) {
        refusedTargets.warn(
                "Refused webhook target for tenant '%s': %s (%s)"
                        .formatted(
                                delivery.request.tenantId(),
                                LogText.escape(String.valueOf(result.reason())),
                                LogText.escape(String.valueOf(result.detail()))),
                null);
    }

    /** The problem with the delivery's id and attempts so far. */
    private static EgressProblemException failure(Delivery delivery, Problem problem) {
        Problem answer = problem.with("deliveryId", delivery.id).with("attempts", delivery.attemptsSoFar());
        return answer.type() == ProblemType.NO_EGRESS_AVAILABLE
                ? new NoEgressAvailableException(answer)
                : new DeliveryFailedException(answer);
    }

    private static long mix(long z) {
        // SplitMix64 finaliser: spreads String hash codes over 64 bits for rendezvous hashing.
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** Recorded by breakers for Border faults; no stack trace, never thrown. */
    static final class BorderFailure extends RuntimeException {
        static final BorderFailure INSTANCE = new BorderFailure();

        private BorderFailure() {
            super("border failure", null, false, false);
        }
    }
}
