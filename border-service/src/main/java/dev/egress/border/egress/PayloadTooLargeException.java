package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.forward.Problems;
import org.springframework.http.HttpStatus;

/** 413 {@code payload-too-large}: the body to send is over {@code egress.limits.max-request-body}. */
final class PayloadTooLargeException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    PayloadTooLargeException(String detail) {
        super(detail, false, null);
    }

    @Override
    public HttpStatus status() {
        return HttpStatus.CONTENT_TOO_LARGE;
    }

    @Override
    public String slug() {
        return Problems.PAYLOAD_TOO_LARGE;
    }
}
