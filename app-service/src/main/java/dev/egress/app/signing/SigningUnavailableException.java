package dev.egress.app.signing;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemReason;
import dev.egress.discovery.web.problem.ProblemType;

/**
 * 503 {@code unavailable} with reason {@code no-signing-secret}: the tenant signs its webhooks but the signing
 * secrets file has no secret for it (not configured, or the tenant missing from it). Nothing was sent: an
 * unsigned webhook would be rejected by its receiver, so the operator's mistake is reported instead.
 */
public final class SigningUnavailableException extends EgressProblemException {

    /** The problem's {@code reason}. */
    public static final String REASON = "no-signing-secret";

    /**
     * Creates the problem.
     *
     * @param tenantId the tenant (named in the detail; no secret is)
     */
    public SigningUnavailableException(String tenantId) {
        super(Problem.of(
                        ProblemType.UNAVAILABLE,
                        "tenant '%s' signs its webhooks, but the signing secrets file has no secret for it"
                                .formatted(tenantId))
                .withReason(ProblemReason.relayed(REASON)));
    }
}
