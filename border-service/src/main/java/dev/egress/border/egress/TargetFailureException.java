package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.forward.Problems;
import org.springframework.http.HttpStatus;

/**
 * The target could not be reached (502 {@code target-unreachable}) or did not answer in time
 * (504 {@code target-timeout}); {@code targetContacted} tells whether the request may have arrived.
 */
final class TargetFailureException extends BorderException {

    private final transient boolean timeout;

    private TargetFailureException(String detail, boolean timeout, boolean targetContacted, Throwable cause) {
        super(detail, targetContacted, cause);
        this.timeout = timeout;
    }

    static TargetFailureException unreachable(String detail, boolean targetContacted, Throwable cause) {
        return new TargetFailureException(detail, false, targetContacted, cause);
    }

    static TargetFailureException timeout(String detail, boolean targetContacted, Throwable cause) {
        return new TargetFailureException(detail, true, targetContacted, cause);
    }

    @Override
    public HttpStatus status() {
        return timeout ? HttpStatus.GATEWAY_TIMEOUT : HttpStatus.BAD_GATEWAY;
    }

    @Override
    public String slug() {
        return timeout ? Problems.TARGET_TIMEOUT : Problems.TARGET_UNREACHABLE;
    }
}
