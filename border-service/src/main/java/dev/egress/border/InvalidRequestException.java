package dev.egress.border;

import dev.egress.discovery.web.problem.ProblemType;

/** 400 {@code invalid-request}: the request broke a rule; the detail names the field. */
public final class InvalidRequestException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    public InvalidRequestException(String detail) {
        super(ProblemType.INVALID_REQUEST, detail, false, null);
    }
}
