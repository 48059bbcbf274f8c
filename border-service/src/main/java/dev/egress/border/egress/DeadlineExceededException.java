package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.web.problem.ProblemType;

/**
 * 503 {@code deadline-exceeded}: App's forward arrived after the deadline it carried. App has given up on
 * the attempt by then (and told its caller), so sending it now would deliver a webhook the caller was told
 * failed; the target is not contacted.
 */
public final class DeadlineExceededException extends BorderException {

    /**
     * Creates the refusal.
     *
     * @param detail by how much the forward was late
     */
    public DeadlineExceededException(String detail) {
        super(ProblemType.DEADLINE_EXCEEDED, detail, false, null);
    }
}
