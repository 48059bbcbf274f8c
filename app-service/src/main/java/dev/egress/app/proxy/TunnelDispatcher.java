package dev.egress.app.proxy;

import dev.egress.app.EgressProblemException;
import dev.egress.app.attempts.Attempt;
import dev.egress.app.attempts.AttemptLoop;
import dev.egress.app.attempts.AttemptOutcome;
import dev.egress.app.attempts.AttemptResult;
import dev.egress.app.attempts.DeliveryFailedException;
import dev.egress.app.attempts.Sending;
import dev.egress.app.fleet.BorderHandle;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.NoEgressAvailableException;
import dev.egress.app.routing.Resolution;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.TunnelCall;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Opens the forward proxy's tunnels through the one attempt engine ({@link AttemptLoop}), exactly as deliveries
 * go: the tenant's candidates from the local snapshot, its strategy, passive health and breakers, and the one retry
 * rule. What is a tunnel's own is here: App's per-IP place taken before a connect is asked for, the connect timeout
 * as the run's deadline, and a Border that has the tunnel up counted as a success at once (the tunnel may then run
 * for an hour). Once a Border said the tunnel is up nothing is retried, and a Border that dies under it ends it. A
 * dedicated tenant's candidates hold only its own IPs, so there is no path to another IP.
 */
final class TunnelDispatcher {

    /** What the proxy does once a Border has the tunnel up. */
    interface Splice {
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
     * @param route     the route that carried it
     * @param attempts  connect attempts made, this one included
     * @param connectMs time until the Border said the tunnel was up, summed over attempts
     */
    record Ended(Route route, int attempts, long connectMs) {}

    private final EgressRouter router;
    private final AttemptLoop loop;
    private final TunnelStream stream;

    private TunnelDispatcher(EgressRouter router, AttemptLoop loop, TunnelStream stream) {
        this.router = router;
        this.loop = loop;
        this.stream = stream;
    }

    /**
     * Tunnels through an engine.
     *
     * @param router the tenants' resolutions
     * @param loop   the attempt engine
     * @param stream one tunnel's HTTP/2 stream through a Border's link
     * @return the tunnels
     */
    static TunnelDispatcher of(EgressRouter router, AttemptLoop loop, TunnelStream stream) {
        return new TunnelDispatcher(router, loop, stream);
    }

    /**
     * Resolves a tenant for a tunnel: as for a delivery, from local state only.
     *
     * @param tenantId the tenant
     * @return its candidates
     * @throws dev.egress.app.tenants.UnknownTenantException for a tenant not in the policy
     * @throws NoEgressAvailableException                   when no allowed IP can carry it now (fail closed)
     */
    Resolution resolve(String tenantId) {
        return router.resolve(tenantId);
    }

    /**
     * Resolves the shared pool, for a tunnel whose destination no tenant claims (an empty proxy user).
     *
     * @return the pool's candidates, as a tenant named {@link EgressRouter#SHARED_POOL}
     * @throws NoEgressAvailableException when no shared-pool IP can carry it now
     */
    Resolution resolveSharedPool() {
        return router.resolveSharedPool();
    }

    /**
     * Opens a tunnel and runs it until its end.
     *
     * @param resolution     the tenant's resolution
     * @param quota          the key its budgets count under (the tenant; for the shared pool and the credential-less
     *                       door, with the sender's address), sent to the Border for its own budget
     * @param target         the target
     * @param connectTimeout the whole connect phase, every attempt included
     * @param fromSender     the sender's bytes, subscribed once, when the tunnel is up
     * @param splice         what to do once it is up
     * @return how the tunnel ended, or an {@link EgressProblemException} when it never came up
     */
    Mono<Ended> open(
            Resolution resolution,
            String quota,
            TunnelCall target,
            Duration connectTimeout,
            Flux<ByteBuf> fromSender,
            Splice splice) {
        return Mono.defer(() -> {
            long key = resolution.tenant().id().hashCode() * 31L
                    + target.authority().hashCode();
            long giveUp = System.currentTimeMillis() + connectTimeout.toMillis();
            return loop.under(loop.policy().withAttemptTimeout(connectTimeout))
                    .run(resolution, key, giveUp, new Connect(quota, target, fromSender, splice))
                    .flatMap(outcome -> outcome instanceof AttemptOutcome.Failed<Ended> failed
                            ? Mono.<Ended>error(failure(failed.problem()))
                            : Mono.just(((AttemptOutcome.Delivered<Ended>) outcome).value()));
        });
    }

    /** One tunnel's connect attempts; the last one, once up, lasts as long as the tunnel. */
    private final class Connect implements Attempt<Ended> {
        private final String quota;
        private final TunnelCall target;
        private final Flux<ByteBuf> fromSender;
        private final Splice splice;
        private long connectMs;

        Connect(String quota, TunnelCall target, Flux<ByteBuf> fromSender, Splice splice) {
            this.quota = quota;
            this.target = target;
            this.fromSender = fromSender;
            this.splice = splice;
        }

        @Override
        public @Nullable AttemptResult reserve(Route route) {
            if (splice.admit(route)) {
                return null;
            }
            return new AttemptResult(
                    AttemptResult.Kind.BORDER_PROBLEM,
                    429,
                    ProblemType.TOO_MANY_REQUESTS.slug(),
                    false,
                    null,
                    "App's tunnel limit for " + route.ip() + " is reached",
                    null,
                    0);
        }

        @Override
        public void release(Route route) {
            splice.release(route);
        }

        @Override
        public @Nullable Problem expired(long leftMillis) {
            return leftMillis > 0
                    ? null
                    : Problem.of(ProblemType.TARGET_TIMEOUT, "the tunnel was not up within the proxy's connect timeout")
                            .withTargetContact(TargetContact.NONE);
        }

        @Override
        public Mono<AttemptResult> send(Sending sending) {
            Route route = sending.route();
            BorderHandle handle = sending.handle();
            long start = sending.startNanos();
            boolean[] up = new boolean[1];
            return stream.open(
                            handle,
                            route,
                            quota,
                            target,
                            sending.deadline(),
                            sending.left(),
                            fromSender,
                            fromTarget -> {
                                up[0] = true;
                                connectMs += (System.nanoTime() - start) / 1_000_000;
                                sending.succeeded();
                                if (handle != null) {
                                    handle.traffic().tunnelOpened(route.ip());
                                }
                                return splice.established(route, fromTarget);
                            })
                    .doOnNext(result -> {
                        if (up[0] && handle != null) {
                            handle.traffic().tunnelClosed(route.ip());
                        }
                        if (!up[0]) {
                            connectMs += (System.nanoTime() - start) / 1_000_000;
                        }
                    });
        }

        @Override
        public Ended delivered(Route route, AttemptResult result, int sent) {
            return new Ended(route, sent, connectMs);
        }
    }

    private static EgressProblemException failure(Problem problem) {
        return problem.type() == ProblemType.NO_EGRESS_AVAILABLE
                ? new NoEgressAvailableException(problem)
                : new DeliveryFailedException(problem);
    }
}
