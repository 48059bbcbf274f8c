package dev.egress.app.attempts;

import dev.egress.app.routing.NoEgressReason;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemReason;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * The table from how a delivery's last attempt ended (a Border's problem answer by status, or a failed
 * call) to the problem App's client sees. A Border's statement about the target is kept: the client must
 * know whether its webhook may have arrived. What a Border says about the target decides between a
 * failure and "no Border could take it" (503 {@code no-egress-available}, safe to send again).
 * {@code Retry-After} goes with every 429 and 503.
 */
public final class AttemptProblems {

    private final Duration attemptTimeout;
    private final Duration overallTimeout;
    private final Duration retryAfter;

    /**
     * Creates the table.
     *
     * @param attemptTimeout {@code egress.dispatch.attempt-timeout}, named in a timeout's detail
     * @param overallTimeout {@code egress.dispatch.overall-timeout}, named in a timeout's detail
     * @param retryAfter     the Retry-After sent with 429 and 503
     */
    public AttemptProblems(Duration attemptTimeout, Duration overallTimeout, Duration retryAfter) {
        this.attemptTimeout = attemptTimeout;
        this.overallTimeout = overallTimeout;
        this.retryAfter = retryAfter;
    }

    /**
     * The problem of an attempt that must not be retried.
     *
     * @param result   the attempt, also the delivery's last
     * @param tenantId the delivery's tenant, named when no Border could take it
     * @return the problem
     */
    public Problem failure(AttemptResult result, String tenantId) {
        String detail = result.detail();
        TargetContact contact = TargetContact.of(result.targetContacted());
        return switch (result.kind()) {
            case ATTEMPT_TIMEOUT ->
                answer(ProblemType.TARGET_TIMEOUT, "no answer within " + attemptTimeout, TargetContact.POSSIBLE);
            case SOURCE_IP_MISMATCH -> answer(ProblemType.BORDER_FAULT, detail, contact);
            case BORDER_PROBLEM -> borderProblem(result, tenantId, detail, contact);
            default -> answer(ProblemType.BORDER_ERROR, detail, contact);
        };
    }

    private Problem borderProblem(AttemptResult result, String tenantId, String detail, TargetContact contact) {
        ProblemReason reason = result.reason() == null ? null : ProblemReason.relayed(result.reason());
        return switch (result.borderStatus()) {
            case 400 -> answer(ProblemType.INVALID_REQUEST, detail, TargetContact.NONE);
            case 403 ->
                answer(ProblemType.TARGET_DENIED, detail, TargetContact.NONE).withReason(reason);
            case 413 -> answer(ProblemType.PAYLOAD_TOO_LARGE, detail, TargetContact.NONE);
            // The Border names why the target failed (reason: connection-refused, tls-handshake-failed, ...)
            // and which kind of 502 it was; both reach the caller unchanged.
            case 502 -> answer(targetFailure(result.slug()), detail, contact).withReason(reason);
            case 504 ->
                answer(ProblemType.TARGET_TIMEOUT, detail, TargetContact.POSSIBLE)
                        .withReason(reason);
            case 404, 409, 429, 500, 503 ->
                result.targetContacted()
                        ? answer(ProblemType.BORDER_ERROR, detail, TargetContact.POSSIBLE)
                        : exhausted(result, tenantId);
            case 401 ->
                answer(ProblemType.UNAVAILABLE, "the egress tier refused App's credentials", TargetContact.NONE);
            default -> answer(ProblemType.BORDER_ERROR, "Border answered " + result.borderStatus(), contact);
        };
    }

    /**
     * Every candidate was tried or skipped, or retries ran out, and nothing reached the target.
     *
     * @param last     the delivery's last attempt, or null when none was made
     * @param tenantId the delivery's tenant
     * @return 429 when the last Border was at its limit, else 503 {@code no-egress-available}
     */
    public Problem exhausted(@Nullable AttemptResult last, String tenantId) {
        if (last != null && last.kind() == AttemptResult.Kind.BORDER_PROBLEM && last.borderStatus() == 429) {
            return answer(
                    ProblemType.TOO_MANY_REQUESTS,
                    "every Border carrying an allowed IP is at its limit",
                    TargetContact.NONE);
        }
        return answer(
                        ProblemType.NO_EGRESS_AVAILABLE,
                        "no Border carrying an IP allowed for tenant '%s' could take the delivery".formatted(tenantId),
                        TargetContact.NONE)
                .withReason(NoEgressReason.BORDERS_UNAVAILABLE);
    }

    /**
     * The delivery as a whole ran out of time; an attempt may have reached the target.
     *
     * @return 504 {@code target-timeout}
     */
    public Problem overallTimeout() {
        return answer(ProblemType.TARGET_TIMEOUT, "no answer within " + overallTimeout, TargetContact.POSSIBLE);
    }

    private Problem answer(ProblemType type, String detail, TargetContact contact) {
        Problem problem = Problem.of(type, detail).withTargetContact(contact);
        HttpStatus status = problem.status();
        return status == HttpStatus.TOO_MANY_REQUESTS || status == HttpStatus.SERVICE_UNAVAILABLE
                ? problem.withRetryAfter(retryAfter)
                : problem;
    }

    /** The Border's 502 kinds that App passes on; anything else is a plain {@code target-unreachable}. */
    private static ProblemType targetFailure(String borderSlug) {
        ProblemType type = ProblemType.ofSlug(borderSlug);
        return type == ProblemType.TARGET_PROTOCOL_ERROR || type == ProblemType.DNS_FAILED
                ? type
                : ProblemType.TARGET_UNREACHABLE;
    }
}
