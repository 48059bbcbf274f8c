package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.discovery.forward.Problems;
import java.util.LinkedHashMap;
import java.util.Map;
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
    private final transient TargetFailureReason reason;
    private final transient String technical;

    private TargetFailureException(TargetFailureReason reason, String detail, Kind kind, boolean targetContacted,
                                   String technical, Throwable cause) {
        super(detail, targetContacted, cause);
        this.kind = kind;
        this.reason = reason;
        this.technical = technical;
    }

    /**
     * 502 {@code target-unreachable} in the reason's own words.
     *
     * @param reason          why
     * @param targetContacted whether the request may have arrived
     * @param technical       the framework's text for developers (escaped by the caller), or null
     * @param cause           the error, or null
     * @return the failure
     */
    static TargetFailureException unreachable(TargetFailureReason reason, boolean targetContacted, String technical,
                                              Throwable cause) {
        return new TargetFailureException(reason, reason.wording(), Kind.UNREACHABLE, targetContacted, technical, cause);
    }

    /**
     * 504 {@code target-timeout}.
     *
     * @param reason          {@link TargetFailureReason#CONNECTION_TIMEOUT} or {@link TargetFailureReason#RESPONSE_TIMEOUT}
     * @param detail          what timed out, with the bound
     * @param targetContacted whether the request may have arrived
     * @return the failure
     */
    static TargetFailureException timeout(TargetFailureReason reason, String detail, boolean targetContacted) {
        return new TargetFailureException(reason, detail, Kind.TIMEOUT, targetContacted, null, null);
    }

    /** The request was sent and the answer could not be decoded: the target was certainly contacted. */
    static TargetFailureException protocolError(String technical) {
        return new TargetFailureException(TargetFailureReason.MALFORMED_RESPONSE,
                TargetFailureReason.MALFORMED_RESPONSE.wording(), Kind.PROTOCOL_ERROR, true, technical, null);
    }

    /**
     * Why the call failed.
     *
     * @return the reason
     */
    TargetFailureReason reason() {
        return reason;
    }

    @Override
    public Map<String, Object> properties() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(Problems.REASON, reason.slug());
        if (technical != null && !technical.isBlank()) {
            properties.put("cause", technical);
        }
        return properties;
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
