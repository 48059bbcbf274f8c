package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.forward.Problems;
import org.springframework.http.HttpStatus;

/**
 * The target could not be reached (502 {@code target-unreachable}), did not answer in time
 * (504 {@code target-timeout}), or answered with something that is not HTTP (502
 * {@code target-protocol-error}); {@code targetContacted} tells whether the request may have arrived.
 */
final class TargetFailureException extends BorderException {

    private enum Kind {
        UNREACHABLE(HttpStatus.BAD_GATEWAY, Problems.TARGET_UNREACHABLE),
        TIMEOUT(HttpStatus.GATEWAY_TIMEOUT, Problems.TARGET_TIMEOUT),
        PROTOCOL_ERROR(HttpStatus.BAD_GATEWAY, Problems.TARGET_PROTOCOL_ERROR);

        private final HttpStatus status;
        private final String slug;

        Kind(HttpStatus status, String slug) {
            this.status = status;
            this.slug = slug;
        }
    }

    private final transient Kind kind;

    private TargetFailureException(String detail, Kind kind, boolean targetContacted, Throwable cause) {
        super(detail, targetContacted, cause);
        this.kind = kind;
    }

    static TargetFailureException unreachable(String detail, boolean targetContacted, Throwable cause) {
        return new TargetFailureException(detail, Kind.UNREACHABLE, targetContacted, cause);
    }

    static TargetFailureException timeout(String detail, boolean targetContacted, Throwable cause) {
        return new TargetFailureException(detail, Kind.TIMEOUT, targetContacted, cause);
    }

    /** The request was sent and the answer could not be decoded: the target was certainly contacted. */
    static TargetFailureException protocolError(String detail, Throwable cause) {
        return new TargetFailureException(detail, Kind.PROTOCOL_ERROR, true, cause);
    }

    @Override
    public HttpStatus status() {
        return kind.status;
    }

    @Override
    public String slug() {
        return kind.slug;
    }
}
