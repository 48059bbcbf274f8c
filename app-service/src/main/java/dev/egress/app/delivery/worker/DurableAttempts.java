package dev.egress.app.delivery.worker;

import dev.egress.app.EgressProblemException;
import dev.egress.app.attempts.ForwardAttempts;
import dev.egress.app.attempts.ForwardOutcome;
import dev.egress.app.attempts.Webhook;
import dev.egress.app.delivery.Attempt;
import dev.egress.app.delivery.AttemptOutcome;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.DurableProperties;
import dev.egress.app.delivery.LeaseLostException;
import dev.egress.app.delivery.NextAttempt;
import dev.egress.app.delivery.RetryProperties;
import dev.egress.app.delivery.RetrySchedule;
import dev.egress.app.dispatch.DeliveryRequest;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.Resolution;
import dev.egress.app.signing.WebhookSigner;
import dev.egress.app.tenants.Tenant;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.problem.ProblemType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * One attempt of a claimed durable delivery: the stored request becomes a {@link Webhook} routed afresh (tenant →
 * IP → live Border, so a moved or drained IP is followed and a dedicated tenant never leaves from another IP), signed
 * with the delivery's id as {@code webhook-id} (the same on every attempt), sent through the one attempt engine
 * ({@link ForwardAttempts}) within the attempt timeout, and written back as an {@link Attempt} row with what follows
 * it ({@link NextAttempt}) under the tenant's schedule.
 */
final class DurableAttempts {

    private static final Logger log = LoggerFactory.getLogger(DurableAttempts.class);
    private static final Set<ProblemType> TARGET_FAILURES = EnumSet.of(
            ProblemType.TARGET_TIMEOUT,
            ProblemType.TARGET_UNREACHABLE,
            ProblemType.DNS_FAILED,
            ProblemType.TARGET_PROTOCOL_ERROR);

    private final DeliveryStore store;
    private final ForwardAttempts forwards;
    private final EgressRouter router;
    private final TenantPolicyStore tenants;
    private final WebhookSigner signer;
    private final RetryProperties retry;
    private final DurableMetrics metrics;
    private final String owner;
    private final Duration attemptTimeout;
    private final Clock clock;
    private final RandomGenerator random = RandomGenerator.getDefault();

    DurableAttempts(
            DeliveryStore store,
            ForwardAttempts forwards,
            EgressRouter router,
            TenantPolicyStore tenants,
            WebhookSigner signer,
            RetryProperties retry,
            DurableMetrics metrics,
            DurableProperties properties,
            Clock clock) {
        this.store = store;
        this.forwards = forwards;
        this.router = router;
        this.tenants = tenants;
        this.signer = signer;
        this.retry = retry;
        this.metrics = metrics;
        this.owner = properties.workerId();
        this.attemptTimeout = properties.attemptTimeout();
        this.clock = clock;
    }

    /**
     * Makes the attempt and writes it. Never fails: a store failure leaves the lease to expire, and the record is
     * claimed again.
     *
     * @param record  the claimed record
     * @param request its stored request, parsed
     * @return whether the destination failed (for its back-off)
     */
    Mono<Boolean> attempt(DeliveryRecord record, DeliveryRequest request) {
        Instant started = clock.instant();
        return send(record, request)
                .onErrorResume(EgressProblemException.class, e -> Mono.just(Tried.failed(e, null, null)))
                .flatMap(tried ->
                        Mono.fromCallable(() -> write(record, started, tried)).subscribeOn(Schedulers.boundedElastic()))
                .onErrorResume(e -> {
                    log.warn(
                            "Durable delivery {}: the attempt could not be written; it is tried again after its "
                                    + "lease",
                            record.id(),
                            e);
                    return Mono.just(true);
                });
    }

    private Mono<Tried> send(DeliveryRecord record, DeliveryRequest request) {
        return Mono.defer(() -> {
            // Resolved afresh for every attempt: no egress for a dedicated tenant is "try later", never another IP.
            Resolution resolution = router.resolve(record.tenantId());
            Map<String, String> headers =
                    signer.sign(record.tenantId(), record.id(), request.headers(), request.body());
            Webhook webhook =
                    new Webhook(record.id(), resolution, request.url(), request.method(), headers, request.body());
            long deadline = clock.millis() + attemptTimeout.toMillis();
            return forwards.deliver(webhook, deadline).map(Tried::of);
        });
    }

    /** Writes the attempt; returns whether the destination failed. */
    private boolean write(DeliveryRecord record, Instant started, Tried tried) {
        Instant now = clock.instant();
        int made = record.attempts() + 1;
        NextAttempt next = NextAttempt.after(tried.outcome(), made, now, schedule(record.tenantId()), random);
        String outcome =
                next instanceof NextAttempt.Delivered ? "delivered" : next instanceof NextAttempt.At ? "retry" : "dead";
        Attempt attempt = new Attempt(
                started,
                tried.egressIp(),
                tried.borderId(),
                outcome,
                tried.reason(),
                tried.targetStatus(),
                Duration.between(started, now),
                tried.excerpt());
        try {
            store.recordAttempt(record.key(), owner, attempt, next, now);
            metrics.attempt(record.tenantId(), outcome);
        } catch (LeaseLostException e) {
            // Another App claimed it after this lease expired: its attempt is the one that counts.
            metrics.attempt(record.tenantId(), "lease-lost");
            metrics.claimConflicts(1);
            log.info(
                    "Durable delivery {}: lease lost before the attempt was written; the holder retries it",
                    record.id());
        }
        log.debug("Durable delivery {} attempt {}: {} ({})", record.id(), made, outcome, tried.reason());
        return destinationFailed(tried.outcome());
    }

    /**
     * Did the destination itself fail (for its back-off)? A 5xx or 429, or no answer from it; not a 4xx (it answered),
     * and not App's own trouble (no egress, a Border's fault), which says nothing about the host.
     */
    static boolean destinationFailed(AttemptOutcome outcome) {
        if (outcome instanceof AttemptOutcome.Answered answered) {
            return answered.status() >= 500 || answered.status() == 429;
        }
        return TARGET_FAILURES.contains(((AttemptOutcome.Failed) outcome).type());
    }

    private RetrySchedule schedule(String tenantId) {
        Tenant tenant = tenants.current().tenants().get(tenantId);
        return retry.forTenant(tenant == null ? null : tenant.retrySchedule());
    }

    /** What an attempt came to, with its route for the log. */
    private record Tried(
            AttemptOutcome outcome,
            @Nullable String egressIp,
            @Nullable String borderId,
            @Nullable String reason,
            @Nullable Integer targetStatus,
            @Nullable String excerpt) {

        static Tried of(ForwardOutcome outcome) {
            ForwardResponse answer = outcome.answer();
            if (answer != null) {
                Route route = outcome.route();
                String ip = answer.sourceIp() != null
                        ? answer.sourceIp()
                        : route == null ? null : route.ip().value();
                String border =
                        route == null ? answer.borderId() : route.borderId().value();
                return new Tried(
                        AttemptOutcome.Answered.of(answer.status(), answer.headers()),
                        ip,
                        border,
                        null,
                        answer.status(),
                        answer.body());
            }
            List<ForwardOutcome.Tried> attempts = outcome.attempts();
            Route last = attempts.isEmpty()
                    ? null
                    : attempts.get(attempts.size() - 1).route();
            return failed(new EgressProblemException(outcome.problem()), last, null);
        }

        static Tried failed(EgressProblemException e, @Nullable Route route, @Nullable String excerpt) {
            return new Tried(
                    new AttemptOutcome.Failed(e.problem().type()),
                    route == null ? null : route.ip().value(),
                    route == null ? null : route.borderId().value(),
                    e.problem().slug(),
                    null,
                    excerpt);
        }
    }
}
