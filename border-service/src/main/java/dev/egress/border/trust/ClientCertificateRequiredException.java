package dev.egress.border.trust;

import dev.egress.border.BorderException;
import dev.egress.discovery.forward.Problems;
import org.springframework.http.HttpStatus;

/** 403 {@code client-certificate-required}: a forward without a valid App certificate. Nothing was sent. */
public final class ClientCertificateRequiredException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail why the client's certificate (or its absence) is refused
     */
    public ClientCertificateRequiredException(String detail) {
        super(detail, false, null);
    }

    @Override
    public HttpStatus status() {
        return HttpStatus.FORBIDDEN;
    }

    @Override
    public String slug() {
        return Problems.CLIENT_CERTIFICATE_REQUIRED;
    }
}
