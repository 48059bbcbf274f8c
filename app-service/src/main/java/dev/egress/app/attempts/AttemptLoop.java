package dev.egress.app.attempts;

import dev.egress.app.fleet.BorderFleet;
import dev.egress.app.fleet.BorderHandle;
import dev.egress.app.resilience.RetryBudget;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.Resolution;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.problem.Problem;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The one attempt engine, for deliveries and tunnels: choose a candidate (the route and its Border's handle from
 * one read of the fleet), take the Border's breaker permit, run one {@link Attempt}, account its result, and retry
 * only when the target was certainly not contacted, within {@link AttemptPolicy#maxAttempts()} and the retry
 * budget. A route whose breaker is open, or that the attempt cannot reserve, is skipped without spending the budget.
 * The run never fails: it ends as an {@link AttemptOutcome}.
 */
public final class AttemptLoop {

    private final EgressRouter router;
    private final BorderFleet fleet;
    private final RetryBudget budget;
    private final AttemptProblems problems;
    private final AttemptPolicy policy;
    private final AttemptEvents events;

    private AttemptLoop(
            EgressRouter router,
            BorderFleet fleet,
            RetryBudget budget,
            AttemptProblems problems,
            AttemptPolicy policy,
            AttemptEvents events) {
        this.router = router;
        this.fleet = fleet;
        this.budget = budget;
        this.problems = problems;
        this.policy = policy;
        this.events = events;
    }

    /**
     * The engine over App's router and fleet, reporting nothing.
     *
     * @param router   the tenants' candidates and the selection strategies
     * @param fleet    the Borders' handles
     * @param budget   the retry budget, shared by every run
     * @param problems the table from a last attempt to the caller's problem
     * @param policy   the rules of a run
     * @return the engine
     */
    public static AttemptLoop over(
            EgressRouter router,
            BorderFleet fleet,
            RetryBudget budget,
            AttemptProblems problems,
            AttemptPolicy policy) {
        return new AttemptLoop(router, fleet, budget, problems, policy, AttemptEvents.NONE);
    }

    /**
     * The same engine under other rules.
     *
     * @param rules the rules
     * @return the engine
     */
    public AttemptLoop under(AttemptPolicy rules) {
        return new AttemptLoop(router, fleet, budget, problems, rules, events);
    }

    /**
     * The same engine reporting to a listener.
     *
     * @param listener where attempts, retries and refused retries are reported
     * @return the engine
     */
    public AttemptLoop reporting(AttemptEvents listener) {
        return new AttemptLoop(router, fleet, budget, problems, policy, listener);
    }

    /** The rules of a run. */
    public AttemptPolicy policy() {
        return policy;
    }

    /** The table from a last attempt to the caller's problem. */
    public AttemptProblems problems() {
        return problems;
    }

    /**
     * Runs attempts until one delivers or the run must stop. Each run counts once towards the retry budget.
     *
     * @param resolution   the tenant's candidates
     * @param key          the request's hash, for stable strategies
     * @param giveUpMillis when the run's time is up (epoch millis): no attempt's deadline goes past it
     * @param attempt      what one attempt is
     * @param <T>          the value of a delivered run
     * @return the outcome
     */
    public <T> Mono<AttemptOutcome<T>> run(Resolution resolution, long key, long giveUpMillis, Attempt<T> attempt) {
        return Mono.defer(() -> {
            budget.onDelivery();
            return next(new Run<>(resolution, key, giveUpMillis, attempt));
        });
    }

    /** One run's state, touched by one attempt at a time. */
    private static final class Run<T> {
        final Resolution resolution;
        final long key;
        final long giveUpMillis;
        final Attempt<T> attempt;
        final Set<BorderId> tried = new HashSet<>(4);
        int sent;

        @Nullable
        AttemptResult last;

        Run(Resolution resolution, long key, long giveUpMillis, Attempt<T> attempt) {
            this.resolution = resolution;
            this.key = key;
            this.giveUpMillis = giveUpMillis;
            this.attempt = attempt;
        }

        String tenant() {
            return resolution.tenant().id();
        }
    }

    private <T> Mono<AttemptOutcome<T>> next(Run<T> run) {
        BorderFleet.Candidate candidate =
                fleet.choose(takesTraffic -> router.choose(run.resolution, run.key, run.tried, takesTraffic));
        if (candidate == null) {
            return failed(problems.exhausted(run.last, run.tenant()), run.last);
        }
        Route route = candidate.route();
        BorderHandle handle = candidate.handle();
        run.tried.add(route.borderId());
        if (handle != null && !handle.breaker().tryAcquirePermission()) {
            // Nothing was sent: move on without spending the retry budget.
            skipped(
                    run,
                    route,
                    AttemptResult.failed(AttemptResult.Kind.BREAKER_OPEN, false, "circuit breaker open", 0));
            return next(run);
        }
        AttemptResult refused = run.attempt.reserve(route);
        if (refused != null) {
            release(handle);
            skipped(run, route, refused);
            return next(run);
        }
        long now = System.currentTimeMillis();
        Problem expired = run.attempt.expired(run.giveUpMillis - now);
        if (expired != null) {
            release(handle);
            run.attempt.release(route);
            return failed(expired, run.last);
        }
        long giveUp = Math.min(now + policy.attemptTimeout().toMillis(), run.giveUpMillis);
        ForwardDeadline deadline =
                new ForwardDeadline(Math.max(0, giveUp - policy.deadlineMargin().toMillis()));
        return send(run, new Sending(route, handle, deadline, Duration.ofMillis(Math.max(0, giveUp - now))));
    }

    private <T> Mono<AttemptOutcome<T>> send(Run<T> run, Sending sending) {
        Route route = sending.route();
        BorderHandle handle = sending.handle();
        run.sent++;
        if (handle != null) {
            handle.traffic().started(route.ip());
        }
        return run.attempt
                .send(sending)
                .doFinally(signal -> run.attempt.release(route))
                .flatMap(result -> {
                    if (handle != null) {
                        handle.traffic().finished(route.ip(), result.outcome(), result.borderFault());
                    }
                    sending.account(result);
                    return settle(run, route, result);
                });
    }

    /** Records an attempt's result and ends the run, or moves on to the next attempt. */
    private <T> Mono<AttemptOutcome<T>> settle(Run<T> run, Route route, AttemptResult result) {
        run.last = result;
        run.attempt.recorded(route, result);
        events.attempt(result.outcome());
        if (result.kind() == AttemptResult.Kind.DELIVERED) {
            return Mono.just(new AttemptOutcome.Delivered<>(run.attempt.delivered(route, result, run.sent)));
        }
        if (!result.retryable()) {
            return failed(problems.failure(result, run.tenant()), result);
        }
        if (!policy.mayRetryAfter(run.sent)) {
            return failed(problems.exhausted(result, run.tenant()), result);
        }
        if (!budget.tryRetry()) {
            events.budgetExhausted();
            return failed(problems.exhausted(result, run.tenant()), result);
        }
        events.retry();
        return next(run);
    }

    private <T> void skipped(Run<T> run, Route route, AttemptResult result) {
        run.last = result;
        run.attempt.recorded(route, result);
        events.attempt(result.outcome());
    }

    private static void release(@Nullable BorderHandle handle) {
        if (handle != null) {
            handle.breaker().releasePermission();
        }
    }

    private static <T> Mono<AttemptOutcome<T>> failed(Problem problem, @Nullable AttemptResult last) {
        return Mono.just(new AttemptOutcome.Failed<>(problem, last));
    }
}
