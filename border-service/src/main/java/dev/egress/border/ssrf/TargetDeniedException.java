package dev.egress.border.ssrf;

import dev.egress.border.BorderException;
import dev.egress.discovery.forward.Problems;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** 403 {@code target-denied}: the SSRF guard refused the target before any connection was made. */
public final class TargetDeniedException extends BorderException {

    private final transient DenialReason reason;

    /**
     * Creates the denial.
     *
     * @param reason why
     * @param detail what exactly was refused
     */
    public TargetDeniedException(DenialReason reason, String detail) {
        super(detail, false, null);
        this.reason = reason;
    }

    /**
     * The typed reason.
     *
     * @return the reason
     */
    public DenialReason reason() {
        return reason;
    }

    @Override
    public HttpStatus status() {
        return HttpStatus.FORBIDDEN;
    }

    @Override
    public String slug() {
        return Problems.TARGET_DENIED;
    }

    @Override
    public Map<String, Object> properties() {
        return Map.of(Problems.REASON, reason.name());
    }
}
