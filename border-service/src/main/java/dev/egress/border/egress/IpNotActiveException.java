package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.web.problem.ProblemType;

/** 409 {@code ip-not-active}: the IP is hosted but not ACTIVE, or the Border is draining. */
public final class IpNotActiveException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    public IpNotActiveException(String detail) {
        super(ProblemType.IP_NOT_ACTIVE, detail, false, null);
    }
}
