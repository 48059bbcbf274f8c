package dev.egress.border;

import dev.egress.discovery.forward.Problems;
import org.springframework.http.HttpStatus;

/** 400 {@code invalid-request}: the request broke a rule; the detail names the field. */
public final class InvalidRequestException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    public InvalidRequestException(String detail) {
        super(detail, false, null);
    }

    @Override
    public HttpStatus status() {
        return HttpStatus.BAD_REQUEST;
    }

    @Override
    public String slug() {
        return Problems.INVALID_REQUEST;
    }
}
