package dev.egress.app.attempts;

import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.problem.ProblemType;
import org.jspecify.annotations.Nullable;

/**
 * What one call to a Border came to. Decides the retry rule: a delivery moves to another Border only
 * when this attempt certainly did not reach the target.
 *
 * @param kind            the class of outcome
 * @param borderStatus    the Border's HTTP status (0 if it did not answer)
 * @param slug            the Border's problem slug, or null
 * @param targetContacted whether the request may have reached the target
 * @param reason          the Border's denial reason ({@code target-denied}), or null
 * @param detail          the Border's problem detail, or a description of the failure
 * @param response        the target's answer when delivered, else null
 * @param latencyMs       time of this attempt
 */
public record AttemptResult(
        Kind kind,
        int borderStatus,
        @Nullable String slug,
        boolean targetContacted,
        @Nullable String reason,
        String detail,
        ForwardResponse response,
        long latencyMs) {

    /** Classes of outcome. */
    public enum Kind {
        /** The target answered (any status). */
        DELIVERED,
        /** The Border could not be reached: connect refused or timed out, nothing was written. */
        NOT_REACHED,
        /**
         * The link to the Border went silent (a PING unanswered): nothing was written. Not a Border fault of its
         * own: the silence already keeps new calls off the link, and a Border only slow to answer (a loaded
         * host) speaks again a moment later, so it must not open the breaker for its whole wait.
         */
        LINK_SILENT,
        /**
         * The Border did not prove the identity the route names (TLS handshake refused, or a scheme App
         * may not use): nothing was sent, not even the token.
         */
        BORDER_UNVERIFIED,
        /** The Border left the snapshot between selection and the call: nothing was sent. */
        BORDER_LEFT,
        /** The circuit breaker of the Border is open: nothing was sent. */
        BREAKER_OPEN,
        /** The Border answered with a problem. */
        BORDER_PROBLEM,
        /** No answer within {@code egress.dispatch.attempt-timeout}; the target may have been reached. */
        ATTEMPT_TIMEOUT,
        /** The exchange broke after the request may have been written, or the answer was unreadable. */
        BORDER_ERROR,
        /** The target answered, but the Border reported another source IP than the route's: a Border fault. */
        SOURCE_IP_MISMATCH
    }

    public static AttemptResult delivered(ForwardResponse response, long latencyMs) {
        return new AttemptResult(Kind.DELIVERED, 200, null, true, null, null, response, latencyMs);
    }

    public static AttemptResult failed(Kind kind, boolean targetContacted, String detail, long latencyMs) {
        return new AttemptResult(kind, 0, null, targetContacted, null, detail, null, latencyMs);
    }

    /**
     * Whether another Border may be tried: only when nothing reached the target.
     *
     * @return true for the retry rule's cases
     */
    public boolean retryable() {
        return switch (kind) {
            case NOT_REACHED, LINK_SILENT, BORDER_UNVERIFIED, BORDER_LEFT, BREAKER_OPEN -> true;
            case BORDER_PROBLEM ->
                !targetContacted
                        && (borderStatus == 409 || borderStatus == 429 || borderStatus == 500 || borderStatus == 503);
            default -> false;
        };
    }

    /**
     * Whether this counts against the Border's health (breaker and passive health).
     *
     * @return true for failures of the Border itself
     */
    public boolean borderFault() {
        return switch (kind) {
            case NOT_REACHED, BORDER_UNVERIFIED, ATTEMPT_TIMEOUT, BORDER_ERROR, SOURCE_IP_MISMATCH -> true;
            case BORDER_PROBLEM -> borderStatus == 500 || borderStatus == 503;
            default -> false;
        };
    }

    /**
     * Whether this says nothing about the Border's health (it was busy or the IP is moving).
     *
     * @return true for neutral outcomes
     */
    public boolean neutral() {
        return kind == Kind.BORDER_LEFT
                || kind == Kind.BREAKER_OPEN
                || kind == Kind.LINK_SILENT
                || (kind == Kind.BORDER_PROBLEM && (borderStatus == 409 || borderStatus == 429));
    }

    /**
     * The outcome as reported in {@code attempts[].outcome} and metrics.
     *
     * @return e.g. {@code delivered}, {@code border-unreachable}, {@code ip-not-active}
     */
    public String outcome() {
        return switch (kind) {
            case DELIVERED -> "delivered";
            case NOT_REACHED, LINK_SILENT -> "border-unreachable";
            case BORDER_UNVERIFIED -> "border-unverified";
            case BORDER_LEFT -> "border-left";
            case BREAKER_OPEN -> "breaker-open";
            case ATTEMPT_TIMEOUT -> "attempt-timeout";
            case BORDER_ERROR -> ProblemType.BORDER_ERROR.slug();
            case SOURCE_IP_MISMATCH -> "source-ip-mismatch";
            case BORDER_PROBLEM -> slug == null ? "border-status-" + borderStatus : slug;
        };
    }
}
