package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.app.fleet.BorderFleet;
import dev.egress.app.fleet.BorderHandle;
import dev.egress.app.resilience.RetryBudget;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.NoEgressAvailableException;
import dev.egress.app.routing.Resolution;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.TunnelCall;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Opens the forward proxy's tunnels exactly as {@link Dispatcher} carries deliveries: the tenant's candidates
 * from the local snapshot, its strategy, passive health and breakers, and the one retry rule. A connect that
 * certainly sent nothing to the target (the Border unreachable, unverified or silent, or answering 409/429/503
 * with {@code targetContacted=false}) moves to another Border within {@code egress.dispatch.max-attempts} and the
 * retry budget; once a Border said the tunnel is up nothing is retried, and a Border that dies under it ends it.
 * A dedicated tenant's candidates hold only its own IPs, so there is no path to another IP.
 */
public final class TunnelDispatcher {

    /** What the proxy does once a Border has the tunnel up. */
    public interface Splice {
        /**
         * Answers the sender and pipes the target's bytes to it.
         *
         * @param route      the route that carries the tunnel
         * @param fromTarget the target's bytes (each released by whoever writes it)
         * @return completes when the target's side has ended
         */
        Mono<Void> established(Route route, Flux<ByteBuf> fromTarget);

        /**
         * Takes a place for a tunnel through a route (App's per-IP limit) before it is asked for.
         *
         * @param route the chosen route
         * @return false to skip the route as busy
         */
        default boolean admit(Route route) {
            return true;
        }

        /**
         * Gives back the place of {@link #admit} once the attempt, or the tunnel it opened, has ended.
         *
         * @param route the route
         */
        default void release(Route route) {}
    }

    /**
     * How a tunnel came to an end, once it was up.
     *
     * @param route    the route that carried it
     * @param attempts connect attempts made, this one included
     * @param connectMs time until the Border said the tunnel was up, summed over attempts
     */
    public record Ended(Route route, int attempts, long connectMs) {}

    private final EgressRouter router;
    private final BorderFleet fleet;
    private final TunnelStream stream;
    private final RetryBudget budget;
    private final DispatchProperties properties;
    private final AttemptProblems problems;

    TunnelDispatcher(
            EgressRouter router,
            BorderFleet fleet,
            TunnelStream stream,
            RetryBudget budget,
            DispatchProperties properties,
            Duration retryAfter) {
        this.router = router;
        this.fleet = fleet;
        this.stream = stream;
        this.budget = budget;
        this.properties = properties;
        this.problems = new AttemptProblems(properties.attemptTimeout(), properties.overallTimeout(), retryAfter);
    }

    /**
     * Resolves a tenant for a tunnel: as for a delivery, from local state only.
     *
     * @param tenantId the tenant
     * @return its candidates
     * @throws dev.egress.app.tenants.UnknownTenantException for a tenant not in the policy
     * @throws NoEgressAvailableException                   when no allowed IP can carry it now (fail closed)
     */
    public Resolution resolve(String tenantId) {
        return router.resolve(tenantId);
    }

    /**
     * Resolves the shared pool, for a tunnel whose destination no tenant claims (an empty proxy user).
     *
     * @return the pool's candidates, as a tenant named {@link EgressRouter#SHARED_POOL}
     * @throws NoEgressAvailableException when no shared-pool IP can carry it now
     */
    public Resolution resolveSharedPool() {
        return router.resolveSharedPool();
    }

    /**
     * Opens a tunnel and runs it until its end.
     *
     * @param resolution     the tenant's resolution
     * @param target         the target
     * @param connectTimeout the whole connect phase, every attempt included
     * @param fromSender     the sender's bytes, subscribed once, when the tunnel is up
     * @param splice         what to do once it is up
     * @return how the tunnel ended, or an {@link EgressProblemException} when it never came up
     */
    public Mono<Ended> open(
            Resolution resolution,
            TunnelCall target,
            Duration connectTimeout,
            Flux<ByteBuf> fromSender,
            Splice splice) {
        return Mono.defer(() -> {
            budget.onDelivery();
            long key = resolution.tenant().id().hashCode() * 31L
                    + target.authority().hashCode();
            long giveUp = System.currentTimeMillis() + connectTimeout.toMillis();
            return next(new Attempts(resolution, target, key, giveUp, fromSender, splice));
        });
    }

    /** Per-tunnel connect state, touched by one attempt at a time. */
    private static final class Attempts {
        final Resolution resolution;
        final TunnelCall target;
        final long key;
        final long giveUpMillis;
        final Flux<ByteBuf> fromSender;
        final Splice splice;
        final Set<BorderId> tried = new HashSet<>(4);
        int sent;
        long connectMs;
        AttemptResult last;

        Attempts(
                Resolution resolution,
                TunnelCall target,
                long key,
                long giveUpMillis,
                Flux<ByteBuf> fromSender,
                Splice splice) {
            this.resolution = resolution;
            this.target = target;
            this.key = key;
            this.giveUpMillis = giveUpMillis;
            this.fromSender = fromSender;
            this.splice = splice;
        }
    }

    private Mono<Ended> next(Attempts attempts) {
        String tenant = attempts.resolution.tenant().id();
        Route route = router.choose(attempts.resolution, attempts.key, attempts.tried, fleet::takesTraffic);
        if (route == null) {
            return Mono.error(failure(problems.exhausted(attempts.last, tenant)));
        }
        attempts.tried.add(route.borderId());
        // Once per attempt, as for a delivery: null when the Border left since the candidates were computed; the
        // stream then says so without sending anything.
        BorderHandle handle = fleet.handle(route);
        if (handle != null && !handle.breaker().tryAcquirePermission()) {
            attempts.last = AttemptResult.failed(AttemptResult.Kind.BREAKER_OPEN, false, "circuit breaker open", 0);
            return next(attempts);
        }
        if (!attempts.splice.admit(route)) {
            release(handle);
            attempts.last = new AttemptResult(
                    AttemptResult.Kind.BORDER_PROBLEM,
                    429,
                    ProblemType.TOO_MANY_REQUESTS.slug(),
                    false,
                    null,
                    "App's tunnel limit for " + route.ip() + " is reached",
                    null,
                    0);
            return next(attempts);
        }
        long left = attempts.giveUpMillis - System.currentTimeMillis();
        if (left <= 0) {
            release(handle);
            attempts.splice.release(route);
            return Mono.error(failure(
                    Problem.of(ProblemType.TARGET_TIMEOUT, "the tunnel was not up within the proxy's connect timeout")
                            .withTargetContact(TargetContact.NONE)));
        }
        return attempt(attempts, route, handle, left);
    }

    private Mono<Ended> attempt(Attempts attempts, Route route, @Nullable BorderHandle handle, long left) {
        String tenant = attempts.resolution.tenant().id();
        attempts.sent++;
        long start = System.nanoTime();
        ForwardDeadline deadline = new ForwardDeadline(
                Math.max(0, attempts.giveUpMillis - properties.deadlineMargin().toMillis()));
        if (handle != null) {
            handle.traffic().started(route.ip());
        }
        boolean[] up = new boolean[1];
        return stream.open(
                        handle,
                        route,
                        attempts.target,
                        deadline,
                        Duration.ofMillis(left),
                        attempts.fromSender,
                        fromTarget -> {
                            up[0] = true;
                            attempts.connectMs += (System.nanoTime() - start) / 1_000_000;
                            if (handle != null) {
                                Dispatcher.account(handle, AttemptResult.delivered(null, 0), System.nanoTime() - start);
                                handle.traffic().tunnelOpened(route.ip());
                            }
                            return attempts.splice.established(route, fromTarget);
                        })
                .doFinally(signal -> attempts.splice.release(route))
                .flatMap(result -> {
                    if (handle != null) {
                        if (up[0]) {
                            handle.traffic().tunnelClosed(route.ip());
                        }
                        handle.traffic().finished(route.ip(), result.outcome(), result.borderFault());
                    }
                    if (up[0]) {
                        return Mono.just(new Ended(route, attempts.sent, attempts.connectMs));
                    }
                    attempts.connectMs += (System.nanoTime() - start) / 1_000_000;
                    if (handle != null) {
                        Dispatcher.account(handle, result, System.nanoTime() - start);
                    }
                    attempts.last = result;
                    if (!result.retryable()) {
                        return Mono.error(failure(problems.failure(result, tenant)));
                    }
                    if (attempts.sent >= properties.maxAttempts() || !budget.tryRetry()) {
                        return Mono.error(failure(problems.exhausted(result, tenant)));
                    }
                    return next(attempts);
                });
    }

    private static void release(@Nullable BorderHandle handle) {
        if (handle != null) {
            handle.breaker().releasePermission();
        }
    }

    private static EgressProblemException failure(Problem problem) {
        return problem.type() == ProblemType.NO_EGRESS_AVAILABLE
                ? new NoEgressAvailableException(problem)
                : new DeliveryFailedException(problem);
    }
}
