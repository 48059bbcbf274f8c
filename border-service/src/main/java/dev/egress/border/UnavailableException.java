package dev.egress.border;

import dev.egress.discovery.forward.Problems;
import org.springframework.http.HttpStatus;

/** 503 {@code unavailable}: the Border cannot take the call now (registry refused an update, no pooled connection in time). */
public final class UnavailableException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail what happened
     */
    public UnavailableException(String detail) {
        super(detail, false, null);
    }

    @Override
    public HttpStatus status() {
        return HttpStatus.SERVICE_UNAVAILABLE;
    }

    @Override
    public String slug() {
        return Problems.UNAVAILABLE;
    }
}
