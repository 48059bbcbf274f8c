package dev.egress.app.attempts;

import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.problem.Problem;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * What one kind of attempt is (a forward, a tunnel's connect): {@link AttemptLoop} chooses the route, takes the
 * breaker's permit, accounts the result and decides whether to retry; an {@code Attempt} sends on the route it is
 * given and says what a delivered result is worth. An instance serves one run, so it may keep that run's state.
 *
 * @param <T> what the run yields once an attempt delivered
 */
public interface Attempt<T> {

    /**
     * Sends one attempt. Never fails: a refusal or a broken call is the result.
     *
     * @param sending the route, its Border's handle and the deadline
     * @return the result, once the attempt ended
     */
    Mono<AttemptResult> send(Sending sending);

    /**
     * The run's value once an attempt delivered (the target answered, or a tunnel was up and ended).
     *
     * @param route  the route that delivered
     * @param result the attempt's result
     * @param sent   calls sent in this run, this one included
     * @return the value
     */
    T delivered(Route route, AttemptResult result, int sent);

    /**
     * Takes what this kind of attempt holds per route besides the breaker's permit (a tunnel's per-IP place).
     *
     * @param route the chosen route
     * @return null to send, or why the route is skipped (nothing is sent; the run moves on)
     */
    default @Nullable AttemptResult reserve(Route route) {
        return null;
    }

    /**
     * Gives back what {@link #reserve} took, once the attempt ended or was not sent.
     *
     * @param route the route
     */
    default void release(Route route) {}

    /**
     * Whether the run's time is up before an attempt is sent.
     *
     * @param leftMillis time left until the run's deadline
     * @return null to send, or the problem that ends the run
     */
    default @Nullable Problem expired(long leftMillis) {
        return null;
    }

    /**
     * Every attempt's result in order, skipped routes included.
     *
     * @param route  the route
     * @param result its result
     */
    default void recorded(Route route, AttemptResult result) {}
}
