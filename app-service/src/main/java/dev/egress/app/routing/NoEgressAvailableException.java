package dev.egress.app.routing;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.forward.Problems;
import java.time.Duration;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * 503: no allowed IP of the tenant is ACTIVE on a live, usable Border right now. Nothing was sent, so
 * the client may try again after {@code Retry-After}.
 */
public final class NoEgressAvailableException extends EgressProblemException {

    private final Duration retryAfter;

    /**
     * Creates the problem.
     *
     * @param detail     why (names the tenant, never a secret)
     * @param reason     stable machine-readable reason, e.g. {@code no-live-ip}, {@code routing-stale}
     * @param retryAfter the Retry-After to send
     * @param extra      more problem members (e.g. the attempts made), may be empty
     */
    public NoEgressAvailableException(String detail, String reason, Duration retryAfter, Map<String, Object> extra) {
        super(HttpStatus.SERVICE_UNAVAILABLE, Problems.NO_EGRESS_AVAILABLE, detail, merge(reason, extra));
        this.retryAfter = retryAfter;
    }

    private static Map<String, Object> merge(String reason, Map<String, Object> extra) {
        java.util.Map<String, Object> all = new java.util.LinkedHashMap<>(extra);
        all.put(Problems.REASON, reason);
        return all;
    }

    /**
     * The stable reason.
     *
     * @return e.g. {@code no-live-ip}
     */
    public String reason() {
        return (String) properties().get(Problems.REASON);
    }

    @Override
    public Duration retryAfter() {
        return retryAfter;
    }
}
