package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import org.jspecify.annotations.Nullable;

/**
 * The target could not be reached (502 {@code target-unreachable}), did not answer in time
 * (504 {@code target-timeout}), or answered with something that is not HTTP (502
 * {@code target-protocol-error}); {@code targetContacted} tells whether the request may have arrived,
 * {@code reason} why in a user's terms, and {@code cause} the framework's text for developers.
 */
final class TargetFailureException extends BorderException {

    private final transient TargetFailureReason reason;

    private TargetFailureException(
            ProblemType type,
            TargetFailureReason reason,
            String detail,
            boolean targetContacted,
            @Nullable String technical,
            @Nullable Throwable cause) {
        super(problem(type, reason, detail, targetContacted, technical), cause);
        this.reason = reason;
    }

    private static Problem problem(
            ProblemType type, TargetFailureReason reason, String detail, boolean targetContacted, String technical) {
        Problem problem = Problem.of(type, detail)
                .withTargetContact(TargetContact.of(targetContacted))
                .withReason(reason);
        return technical == null || technical.isBlank() ? problem : problem.with("cause", technical);
    }

    /**
     * 502 {@code target-unreachable} in the reason's own words.
     *
     * @param reason          why
     * @param targetContacted whether the request may have arrived
     * @param technical       the framework's text for developers (escaped by the caller), or null
     * @param cause           the error, or null
     * @return the failure
     */
    static TargetFailureException unreachable(
            TargetFailureReason reason, boolean targetContacted, String technical, Throwable cause) {
        return new TargetFailureException(
                ProblemType.TARGET_UNREACHABLE, reason, reason.wording(), targetContacted, technical, cause);
    }

    /**
     * 504 {@code target-timeout}.
     *
     * @param reason          {@link TargetFailureReason#CONNECTION_TIMEOUT} or {@link TargetFailureReason#RESPONSE_TIMEOUT}
     * @param detail          what timed out, with the bound
     * @param targetContacted whether the request may have arrived
     * @return the failure
     */
    static TargetFailureException timeout(TargetFailureReason reason, String detail, boolean targetContacted) {
        return new TargetFailureException(ProblemType.TARGET_TIMEOUT, reason, detail, targetContacted, null, null);
    }

    /** The request was sent and the answer could not be decoded: the target was certainly contacted. */
    static TargetFailureException protocolError(String technical) {
        return new TargetFailureException(
                ProblemType.TARGET_PROTOCOL_ERROR,
                TargetFailureReason.MALFORMED_RESPONSE,
                TargetFailureReason.MALFORMED_RESPONSE.wording(),
                true,
                technical,
                null);
    }

    /**
     * Why the call failed.
     *
     * @return the reason
     */
    TargetFailureReason reason() {
        return reason;
    }
}
