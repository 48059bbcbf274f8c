package dev.egress.app.attempts;

import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.problem.Problem;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How a webhook's delivery ended, without HTTP types: the target's answer and the route that carried it, or the
 * problem (with {@code targetContacted}); and every attempt in order, skipped routes included.
 *
 * @param attempts every attempt's route and result
 * @param route    the route that delivered, or null
 * @param answer   the target's answer as the Border reported it, or null
 * @param problem  why nothing was delivered, or null
 * @param last     the last attempt's result, or null when none was made
 */
public record ForwardOutcome(
        List<Tried> attempts,
        @Nullable Route route,
        @Nullable ForwardResponse answer,
        @Nullable Problem problem,
        @Nullable AttemptResult last) {

    /**
     * One attempt.
     *
     * @param route  its route
     * @param result its result
     */
    public record Tried(Route route, AttemptResult result) {}

    /** Copies the attempts. */
    public ForwardOutcome {
        attempts = List.copyOf(attempts);
    }

    /** Whether the target answered (any status). */
    public boolean delivered() {
        return answer != null;
    }
}
