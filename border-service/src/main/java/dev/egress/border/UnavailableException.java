package dev.egress.border;

import dev.egress.discovery.web.problem.ProblemType;

/** 503 {@code unavailable}: the Border cannot take the call now (registry refused an update, no pooled connection in time). */
public final class UnavailableException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    public UnavailableException(String detail) {
        super(ProblemType.UNAVAILABLE, detail, false, null);
    }
}
