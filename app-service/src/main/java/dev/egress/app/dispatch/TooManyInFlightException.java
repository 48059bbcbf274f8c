package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import java.time.Duration;
import java.util.Locale;

/**
 * 429 {@code too-many-in-flight}: App's own admission limit was reached, nothing was sent to a Border.
 * Distinct from {@code too-many-requests}, which is a Border's per-IP limit: the client learns whether it
 * is its own tenant that is too busy ({@code limit: tenant}) or this App ({@code limit: global}).
 */
final class TooManyInFlightException extends EgressProblemException {

    /** Which limit refused the delivery. */
    enum Limit {
        /** {@code egress.dispatch.max-in-flight}. */
        GLOBAL,
        /** {@code egress.dispatch.max-in-flight-per-tenant}. */
        TENANT;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    TooManyInFlightException(Limit limit, int max, Duration retryAfter) {
        super(Problem.of(
                        ProblemType.TOO_MANY_IN_FLIGHT,
                        limit == Limit.TENANT
                                ? "the tenant already has %d deliveries in flight (egress.dispatch.max-in-flight-per-tenant)"
                                        .formatted(max)
                                : "this App already has %d deliveries in flight (egress.dispatch.max-in-flight)"
                                        .formatted(max))
                .with("limit", limit.tag())
                .with("maxInFlight", max)
                .withTargetContact(TargetContact.NONE)
                .withRetryAfter(retryAfter));
    }
}
