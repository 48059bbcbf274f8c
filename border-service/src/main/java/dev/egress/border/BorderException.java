package dev.egress.border;

import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemException;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import org.jspecify.annotations.Nullable;

/**
 * A failure that ends one Border request with a problem+json answer. Every Border problem states
 * {@code targetContacted}: App moves a delivery to another Border only when it is false. Raised on the
 * hot path (a denied target, a full concurrency limit), so no stack trace is captured.
 */
public abstract class BorderException extends ProblemException {

    /**
     * Creates the failure with the type's usual status.
     *
     * @param type            the problem type
     * @param detail          human-readable detail (never contains secrets)
     * @param targetContacted whether any byte of the request may have reached the target
     * @param cause           the underlying error, or null
     */
    protected BorderException(ProblemType type, String detail, boolean targetContacted, @Nullable Throwable cause) {
        this(Problem.of(type, detail).withTargetContact(TargetContact.of(targetContacted)), cause);
    }

    /**
     * Creates the failure.
     *
     * @param problem the answer; it must state the target contact
     * @param cause   the underlying error, or null
     */
    protected BorderException(Problem problem, Throwable cause) {
        super(problem, cause);
        if (problem.targetContact() == TargetContact.UNSTATED) {
            throw new IllegalArgumentException("targetContact: UNSTATED (expected: a Border problem states it)");
        }
    }

    /**
     * Whether the request may have reached the target; App retries elsewhere only when false.
     *
     * @return true if the target may have seen the request
     */
    public boolean targetContacted() {
        return targetContact() == TargetContact.POSSIBLE;
    }
}
