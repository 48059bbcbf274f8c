package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.forward.Problems;
import org.springframework.http.HttpStatus;

/** 409 {@code ip-not-active}: the IP is hosted but not ACTIVE, or the Border is draining. */
final class IpNotActiveException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    IpNotActiveException(String detail) {
        super(detail, false, null);
    }

    @Override
    public HttpStatus status() {
        return HttpStatus.CONFLICT;
    }

    @Override
    public String slug() {
        return Problems.IP_NOT_ACTIVE;
    }
}
