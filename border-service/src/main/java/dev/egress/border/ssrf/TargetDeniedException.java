package dev.egress.border.ssrf;

import dev.egress.border.BorderException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;

/** 403 {@code target-denied}: the SSRF guard refused the target before any connection was made. */
public final class TargetDeniedException extends BorderException {

    private final transient DenialReason reason;

    /**
     * Creates the denial.
     *
     * @param reason why
     * @param detail what exactly was refused
     */
    public TargetDeniedException(DenialReason reason, String detail) {
        super(
                Problem.of(ProblemType.TARGET_DENIED, detail)
                        .withTargetContact(TargetContact.NONE)
                        .withReason(reason),
                null);
        this.reason = reason;
    }

    /**
     * The typed reason.
     *
     * @return the reason
     */
    public DenialReason reason() {
        return reason;
    }
}
