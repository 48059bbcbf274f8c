package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import java.time.Duration;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * 429 {@code too-many-in-flight}: App's own admission limit was reached, nothing was sent to a Border.
 * Distinct from {@code too-many-requests}, which is a Border's per-IP limit: the client learns whether it
 * is its own tenant that is too busy ({@code limit: tenant}) or this App ({@code limit: global}).
 */
final class TooManyInFlightException extends EgressProblemException {

    /** Problem slug. */
    static final String SLUG = "too-many-in-flight";

    /** Which limit refused the delivery. */
    enum Limit {
        /** {@code egress.dispatch.max-in-flight}. */
        GLOBAL,
        /** {@code egress.dispatch.max-in-flight-per-tenant}. */
        TENANT;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Duration retryAfter;

    TooManyInFlightException(Limit limit, int max, Duration retryAfter) {
        super(HttpStatus.TOO_MANY_REQUESTS, SLUG, limit == Limit.TENANT
                        ? "the tenant already has %d deliveries in flight (egress.dispatch.max-in-flight-per-tenant)".formatted(max)
                        : "this App already has %d deliveries in flight (egress.dispatch.max-in-flight)".formatted(max),
                Map.of("limit", limit.tag(), "maxInFlight", max, dev.egress.discovery.forward.Problems.TARGET_CONTACTED, false));
        this.retryAfter = retryAfter;
    }

    @Override
    public Duration retryAfter() {
        return retryAfter;
    }
}
