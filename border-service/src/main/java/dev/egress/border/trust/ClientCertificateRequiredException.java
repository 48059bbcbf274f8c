package dev.egress.border.trust;

import dev.egress.border.BorderException;
import dev.egress.discovery.web.problem.ProblemType;

/** 403 {@code client-certificate-required}: a forward without a valid App certificate. Nothing was sent. */
public final class ClientCertificateRequiredException extends BorderException {

    /**
     * Creates the failure.
     *
     * @param detail why the client's certificate (or its absence) is refused
     */
    public ClientCertificateRequiredException(String detail) {
        super(ProblemType.CLIENT_CERTIFICATE_REQUIRED, detail, false, null);
    }
}
