package dev.egress.app;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.springframework.http.HttpStatus;

/**
 * A failure that the public API reports as an RFC 9457 problem with a stable type
 * ({@code urn:egress:problem:<slug>}). Subclasses are thrown on the request path, so they carry no
 * stack trace: the type, status and detail say everything a client or operator needs.
 */
public class EgressProblemException extends RuntimeException {

    private final HttpStatus status;
    private final String slug;
    private final transient Map<String, Object> properties;

    /**
     * Creates a problem.
     *
     * @param status     the HTTP status of the response
     * @param slug       the problem type slug, one of {@link dev.egress.discovery.forward.Problems}
     * @param detail     human-readable detail (never contains secrets)
     * @param properties extra members of the problem body, e.g. {@code reason}
     */
    public EgressProblemException(HttpStatus status, String slug, String detail, Map<String, Object> properties) {
        super(detail, null, false, false);
        this.status = Objects.requireNonNull(status, "status");
        this.slug = Objects.requireNonNull(slug, "slug");
        this.properties = properties == null ? Map.of() : Map.copyOf(properties);
    }

    /**
     * The HTTP status.
     *
     * @return the status
     */
    public HttpStatus status() {
        return status;
    }

    /**
     * The stable problem type slug.
     *
     * @return e.g. {@code no-egress-available}
     */
    public String slug() {
        return slug;
    }

    /**
     * Extra members of the problem body.
     *
     * @return an immutable map
     */
    public Map<String, Object> properties() {
        return properties;
    }

    /**
     * When the client may try again, sent as {@code Retry-After}.
     *
     * @return the delay, or null when a retry would not help
     */
    public Duration retryAfter() {
        return null;
    }
}
