package dev.egress.border;

import dev.egress.discovery.web.problem.ProblemType;

/** 404 {@code ip-not-hosted}: this Border does not host the IP. */
public final class IpNotHostedException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    public IpNotHostedException(String detail) {
        super(ProblemType.IP_NOT_HOSTED, detail, false, null);
    }
}
