package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.forward.Problems;
import org.springframework.http.HttpStatus;

/** 429 {@code too-many-requests}: the IP's concurrency limit is reached. */
final class TooManyRequestsException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    TooManyRequestsException(String detail) {
        super(detail, false, null);
    }

    @Override
    public HttpStatus status() {
        return HttpStatus.TOO_MANY_REQUESTS;
    }

    @Override
    public String slug() {
        return Problems.TOO_MANY_REQUESTS;
    }
}
