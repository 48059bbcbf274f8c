package dev.egress.discovery.web.problem;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * A failure that ends one request with a {@link Problem}: the base of Border's {@code BorderException}
 * and App's {@code EgressProblemException} hierarchies, rendered by {@link ProblemAdviceSupport} and
 * nowhere else. Raised on hot paths (a denied target, a full limit, no egress), so no stack trace is
 * captured: the problem says everything a client or an operator needs.
 */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;

    /**
     * Creates the failure.
     *
     * @param problem the answer; its detail is also the message
     * @param cause   the underlying error, or null
     */
    public ProblemException(Problem problem, @Nullable Throwable cause) {
        super(Objects.requireNonNull(problem, "problem").detail(), cause, false, false);
        this.problem = problem;
    }

    /**
     * The answer.
     *
     * @return the problem
     */
    public Problem problem() {
        return problem;
    }

    /**
     * The HTTP status of the answer.
     *
     * @return the status
     */
    public HttpStatus status() {
        return problem.status();
    }

    /**
     * The problem type.
     *
     * @return the type
     */
    public ProblemType type() {
        return problem.type();
    }

    /**
     * The stable slug of the type.
     *
     * @return e.g. {@code no-egress-available}
     */
    public String slug() {
        return problem.slug();
    }

    /**
     * What the answer says about the target.
     *
     * @return the contact
     */
    public TargetContact targetContact() {
        return problem.targetContact();
    }

    /**
     * Members beyond type, title, status, detail and {@code targetContacted} (see {@link Problem#properties()}).
     *
     * @return an unmodifiable map
     */
    public Map<String, Object> properties() {
        return problem.properties();
    }

    /**
     * When the client may try again, sent as {@code Retry-After}.
     *
     * @return the delay, or null when a retry would not help
     */
    public @Nullable Duration retryAfter() {
        return problem.retryAfter();
    }
}
