package dev.egress.border;

import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * A failure that ends one request with a problem+json answer. Subclasses fix the status and the
 * problem type slug; {@link ProblemAdvice} renders them. Raised on the hot path (a denied target, a
 * full concurrency limit), so no stack trace is captured.
 */
public abstract class BorderException extends RuntimeException {

    private final transient boolean targetContacted;

    /**
     * Creates the failure.
     *
     * @param detail          human-readable detail (never contains secrets)
     * @param targetContacted whether any byte of the request may have reached the target
     * @param cause           the underlying error, or null
     */
    protected BorderException(String detail, boolean targetContacted, Throwable cause) {
        super(detail, cause, false, false);
        this.targetContacted = targetContacted;
    }

    /**
     * The HTTP status of the answer.
     *
     * @return the status
     */
    public abstract HttpStatus status();

    /**
     * The problem type slug (see {@link dev.egress.discovery.forward.Problems}).
     *
     * @return the slug
     */
    public abstract String slug();

    /**
     * Whether the request may have reached the target; App retries elsewhere only when false.
     *
     * @return true if the target may have seen the request
     */
    public boolean targetContacted() {
        return targetContacted;
    }

    /**
     * Extra problem properties beyond type, title, status, detail and {@code targetContacted}.
     *
     * @return property name to value; empty by default
     */
    public Map<String, Object> properties() {
        return Map.of();
    }
}
