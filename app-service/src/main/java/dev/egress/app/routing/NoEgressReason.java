package dev.egress.app.routing;

import dev.egress.discovery.web.problem.ProblemReason;
import java.util.Locale;

/**
 * Why a delivery found no egress: the {@code reason} of a 503 {@code no-egress-available} problem and
 * the {@code reason} tag of {@code egress.delivery.refused}. A closed set, so dashboards and clients can
 * rely on it.
 */
public enum NoEgressReason implements ProblemReason {
    /** No IP allowed for the tenant is ACTIVE on a live Border in the snapshot. */
    NO_LIVE_IP,
    /**
     * The dedicated tenant's only ACTIVE IPs are each announced ACTIVE by two or more live Borders: two
     * authorised claims for one dedicated IP fail closed rather than pick an owner.
     */
    IP_CONFLICT,
    /** The routing snapshot is older than {@code egress.routing.max-staleness}, and this traffic fails closed. */
    ROUTING_STALE,
    /** No routing snapshot has been read yet since App started. */
    ROUTING_NOT_READY,
    /** Every Border carrying an allowed IP was tried or skipped (unreachable, busy, breaker open) and none took it. */
    BORDERS_UNAVAILABLE;

    /** The wire form, e.g. {@code no-live-ip}. */
    @Override
    public String code() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
