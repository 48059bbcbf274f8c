package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.web.problem.ProblemType;

/** 413 {@code payload-too-large}: the body to send is over {@code egress.limits.max-request-body}. */
final class PayloadTooLargeException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    PayloadTooLargeException(String detail) {
        super(ProblemType.PAYLOAD_TOO_LARGE, detail, false, null);
    }
}
