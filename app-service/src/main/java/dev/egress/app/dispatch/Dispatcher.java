package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.app.resilience.BorderBreakers;
import dev.egress.app.resilience.PassiveHealth;
import dev.egress.app.resilience.RetryBudget;
import dev.egress.app.resilience.RouteTraffic;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.NoEgressAvailableException;
import dev.egress.app.routing.Resolution;
import dev.egress.discovery.BorderId;
import dev.egress.discovery.Route;
import dev.egress.discovery.forward.ForwardRequest;
import dev.egress.discovery.forward.ForwardResponse;
import dev.egress.discovery.forward.Problems;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpStatus;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Carries one delivery: tenant → allowed IPs → a live Border (from the local snapshot only) → the
 * Border's forward call, with one circuit breaker per Border, passive health, time limits per attempt
 * and overall, and retries under a budget that move to another Border only when nothing reached the
 * target. A request that may have reached the target is never sent twice.
 */
final class Dispatcher {

    /** Problem slug for a Border that failed in a way that may have reached the target. */
    static final String BORDER_ERROR = "border-error";

    /** Mutable per-delivery state; touched by one attempt at a time, read by the overall timeout. */
    private static final class Delivery {
        final String id = UUID.randomUUID().toString();
        final DeliveryRequest request;
        final Resolution resolution;
        final long key;
        final Set<BorderId> tried = new HashSet<>(4);
        final List<DeliveryResponse.Attempt> attempts = new ArrayList<>(2);
        int sent;
        AttemptResult last;

        Delivery(DeliveryRequest request, Resolution resolution) {
            this.request = request;
            this.resolution = resolution;
            this.key = mix(request.tenantId().hashCode() * 31L + request.url().hashCode());
        }

        synchronized void record(Route route, AttemptResult result) {
            tried.add(route.borderId());
            attempts.add(new DeliveryResponse.Attempt(route.borderId().value(), route.ip().value(), result.outcome(),
                    result.latencyMs()));
            last = result;
        }

        synchronized List<DeliveryResponse.Attempt> attemptsSoFar() {
            return List.copyOf(attempts);
        }
    }

    private final EgressRouter router;
    private final BorderClients clients;
    private final BorderBreakers breakers;
    private final PassiveHealth health;
    private final RetryBudget budget;
    private final DispatchProperties properties;
    private final Duration retryAfter;
    private final DispatchMetrics metrics;
    private final JsonMapper json;
    private final RouteTraffic traffic;

    Dispatcher(EgressRouter router, BorderClients clients, BorderBreakers breakers, PassiveHealth health,
               RetryBudget budget, DispatchProperties properties, Duration retryAfter, DispatchMetrics metrics,
               JsonMapper json, RouteTraffic traffic) {
        this.router = router;
        this.clients = clients;
        this.breakers = breakers;
        this.health = health;
        this.budget = budget;
        this.properties = properties;
        this.retryAfter = retryAfter;
        this.metrics = metrics;
        this.json = json;
        this.traffic = traffic;
    }

    /**
     * Delivers a webhook.
     *
     * @param request the validated request
     * @return the target's answer, or an {@link EgressProblemException} error
     */
    Mono<DeliveryResponse> dispatch(DeliveryRequest request) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            Resolution resolution;
            try {
                resolution = router.resolve(request.tenantId());
            } catch (NoEgressAvailableException e) {
                metrics.refused(tenantClassOf(request), e.reason());
                metrics.delivery(e.slug(), tenantClassOf(request), System.nanoTime() - start);
                return Mono.error(e);
            }
            budget.onDelivery();
            Delivery delivery = new Delivery(request, resolution);
            return next(delivery)
                    .timeout(properties.overallTimeout())
                    .onErrorMap(TimeoutException.class, e -> failure(delivery, HttpStatus.GATEWAY_TIMEOUT,
                            Problems.TARGET_TIMEOUT, "no answer within " + properties.overallTimeout(), true, null))
                    .doOnSuccess(r -> metrics.delivery("delivered", resolution.tenantClass(), System.nanoTime() - start))
                    .doOnError(EgressProblemException.class, e -> {
                        if (e instanceof NoEgressAvailableException n) {
                            metrics.refused(resolution.tenantClass(), n.reason());
                        }
                        metrics.delivery(e.slug(), resolution.tenantClass(), System.nanoTime() - start);
                    });
        });
    }

    private String tenantClassOf(DeliveryRequest request) {
        Resolution peek = router.peek(request.tenantId());
        return peek == null ? "unknown" : peek.tenantClass();
    }

    private Mono<DeliveryResponse> next(Delivery delivery) {
        Route route = router.choose(delivery.resolution, delivery.key, delivery.tried,
                border -> health.isHealthy(border) && breakers.allows(border));
        if (route == null) {
            return Mono.error(exhausted(delivery));
        }
        CircuitBreaker breaker = breakers.of(route.borderId());
        if (!breaker.tryAcquirePermission()) {
            // Nothing was sent: move on without spending the retry budget.
            AttemptResult skipped = AttemptResult.failed(AttemptResult.Kind.BREAKER_OPEN, false, "circuit breaker open", 0);
            delivery.record(route, skipped);
            metrics.attempt(skipped.outcome());
            return next(delivery);
        }
        delivery.sent++;
        byte[] body = json.writeValueAsBytes(new ForwardRequest(delivery.id, route.ip().value(), delivery.request.url(),
                delivery.request.method(), delivery.request.headers(), delivery.request.payload()));
        long start = System.nanoTime();
        traffic.started(route.ip(), route.borderId());
        return clients.call(route, body).map(result -> SourceIpCheck.verify(route, result, metrics)).flatMap(result -> {
            traffic.finished(route.ip(), route.borderId(), result.outcome(), result.borderFault());
            account(breaker, route.borderId(), result, System.nanoTime() - start);
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
        });
    }

    private void account(CircuitBreaker breaker, BorderId border, AttemptResult result, long nanos) {
        if (result.borderFault()) {
            breaker.onError(nanos, TimeUnit.NANOSECONDS, BorderFailure.INSTANCE);
            health.onFailure(border);
        } else if (result.neutral()) {
            breaker.releasePermission();
        } else {
            breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
            health.onSuccess(border);
        }
    }

    private DeliveryResponse response(Delivery delivery, Route route, ForwardResponse answer) {
        DeliveryResponse.TargetResponse target = new DeliveryResponse.TargetResponse(answer.status(), answer.latencyMs(),
                answer.headers(), answer.body() == null || answer.body().isEmpty() ? null : answer.body(),
                answer.bodyTruncated() ? Boolean.TRUE : null);
        String egressIp = answer.sourceIp() != null ? answer.sourceIp() : route.ip().value();
        return new DeliveryResponse(delivery.id, delivery.request.tenantId(), egressIp, route.borderId().value(), target,
                delivery.attemptsSoFar());
    }

    /** Every candidate was tried or skipped, or retries ran out, and nothing reached the target. */
    private EgressProblemException exhausted(Delivery delivery) {
        AttemptResult last = delivery.last;
        if (last != null && last.kind() == AttemptResult.Kind.BORDER_PROBLEM && last.borderStatus() == 429) {
            return failure(delivery, HttpStatus.TOO_MANY_REQUESTS, Problems.TOO_MANY_REQUESTS,
                    "every Border carrying an allowed IP is at its limit", false, null);
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("deliveryId", delivery.id);
        extra.put("attempts", delivery.attemptsSoFar());
        extra.put(Problems.TARGET_CONTACTED, false);
        return new NoEgressAvailableException("no Border carrying an IP allowed for tenant '%s' could take the delivery"
                .formatted(delivery.request.tenantId()), "borders-unavailable", retryAfter, extra);
    }

    /** A result that must not be retried, mapped to the public problem. */
    private EgressProblemException failure(Delivery delivery, AttemptResult result) {
        String detail = result.detail();
        return switch (result.kind()) {
            case ATTEMPT_TIMEOUT -> failure(delivery, HttpStatus.GATEWAY_TIMEOUT, Problems.TARGET_TIMEOUT,
                    "no answer within " + properties.attemptTimeout(), true, null);
            case SOURCE_IP_MISMATCH -> failure(delivery, HttpStatus.BAD_GATEWAY, SourceIpCheck.BORDER_FAULT, detail,
                    result.targetContacted(), null);
            case BORDER_PROBLEM -> switch (result.borderStatus()) {
                case 400 -> failure(delivery, HttpStatus.BAD_REQUEST, Problems.INVALID_REQUEST, detail, false, null);
                case 403 -> failure(delivery, HttpStatus.FORBIDDEN, Problems.TARGET_DENIED, detail, false, result.reason());
                case 413 -> failure(delivery, HttpStatus.CONTENT_TOO_LARGE, Problems.PAYLOAD_TOO_LARGE, detail, false, null);
                // The Border names why the target failed (reason: connection-refused, tls-handshake-failed, ...)
                // and which kind of 502 it was; both reach the caller unchanged.
                case 502 -> failure(delivery, HttpStatus.BAD_GATEWAY, targetFailureSlug(result.slug()), detail,
                        result.targetContacted(), result.reason());
                case 504 -> failure(delivery, HttpStatus.GATEWAY_TIMEOUT, Problems.TARGET_TIMEOUT, detail, true,
                        result.reason());
                case 404, 409, 429, 500, 503 -> result.targetContacted()
                        ? failure(delivery, HttpStatus.BAD_GATEWAY, BORDER_ERROR, detail, true, null)
                        : exhausted(delivery);
                case 401 -> failure(delivery, HttpStatus.SERVICE_UNAVAILABLE, Problems.UNAVAILABLE,
                        "the egress tier refused App's credentials", false, null);
                default -> failure(delivery, HttpStatus.BAD_GATEWAY, BORDER_ERROR,
                        "Border answered " + result.borderStatus(), result.targetContacted(), null);
            };
            default -> failure(delivery, HttpStatus.BAD_GATEWAY, BORDER_ERROR, detail, result.targetContacted(), null);
        };
    }

    /** The Border's 502 kinds that App passes on; anything else is a plain {@code target-unreachable}. */
    private static String targetFailureSlug(String borderSlug) {
        return Problems.TARGET_PROTOCOL_ERROR.equals(borderSlug) || Problems.DNS_FAILED.equals(borderSlug)
                ? borderSlug : Problems.TARGET_UNREACHABLE;
    }

    private EgressProblemException failure(Delivery delivery, HttpStatus status, String slug, String detail,
                                           boolean targetContacted, String reason) {
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("deliveryId", delivery.id);
        extra.put("attempts", delivery.attemptsSoFar());
        extra.put(Problems.TARGET_CONTACTED, targetContacted);
        if (reason != null) {
            extra.put(Problems.REASON, reason);
        }
        Duration after = status == HttpStatus.TOO_MANY_REQUESTS || status == HttpStatus.SERVICE_UNAVAILABLE ? retryAfter : null;
        return new DeliveryFailedException(status, slug, detail, extra, after);
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
