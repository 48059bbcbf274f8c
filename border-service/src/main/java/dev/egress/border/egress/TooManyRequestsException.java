package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.web.problem.ProblemType;

/** 429 {@code too-many-requests}: the IP's concurrency limit is reached. */
public final class TooManyRequestsException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    public TooManyRequestsException(String detail) {
        super(ProblemType.TOO_MANY_REQUESTS, detail, false, null);
    }
}
