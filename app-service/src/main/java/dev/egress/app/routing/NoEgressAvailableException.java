package dev.egress.app.routing;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import java.time.Duration;

/**
 * 503: no allowed IP of the tenant is ACTIVE on a live, usable Border right now. Nothing was sent, so
 * the client may try again after {@code Retry-After}.
 */
public final class NoEgressAvailableException extends EgressProblemException {

    private final transient NoEgressReason reason;

    /**
     * Creates the problem.
     *
     * @param detail     why (names the tenant, never a secret)
     * @param reason     the typed reason
     * @param retryAfter the Retry-After to send
     */
    public NoEgressAvailableException(String detail, NoEgressReason reason, Duration retryAfter) {
        this(Problem.of(ProblemType.NO_EGRESS_AVAILABLE, detail)
                .withReason(reason)
                .withRetryAfter(retryAfter));
    }

    /**
     * Creates the problem with more members or a statement about the target (the attempts a delivery made).
     *
     * @param problem a {@code no-egress-available} problem whose reason is a {@link NoEgressReason}
     */
    public NoEgressAvailableException(Problem problem) {
        super(problem);
        if (problem.type() != ProblemType.NO_EGRESS_AVAILABLE || !(problem.reason() instanceof NoEgressReason)) {
            throw new IllegalArgumentException("problem: %s %s (expected: no-egress-available with a NoEgressReason)"
                    .formatted(problem.type(), problem.reason()));
        }
        this.reason = (NoEgressReason) problem.reason();
    }

    /**
     * The typed reason.
     *
     * @return e.g. {@link NoEgressReason#NO_LIVE_IP}
     */
    public NoEgressReason reason() {
        return reason;
    }
}
