package dev.egress.border;

import dev.egress.discovery.forward.Problems;
import org.springframework.http.HttpStatus;

/** 404 {@code ip-not-hosted}: this Border does not host the IP. */
public final class IpNotHostedException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    public IpNotHostedException(String detail) {
        super(detail, false, null);
    }

    @Override
    public HttpStatus status() {
        return HttpStatus.NOT_FOUND;
    }

    @Override
    public String slug() {
        return Problems.IP_NOT_HOSTED;
    }
}
