package dev.egress.border.decisions;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the operator decided for a Border's IPs: the status each IP was last set to through the operator API
 * (or {@code DISABLED} for every IP after a fail-closed start). An IP without an entry follows the
 * configuration ({@code egress.border.initial-status}). Immutable; entries are sorted by IP.
 *
 * @param borderId the Border the decisions belong to
 * @param statuses IP (public address) to status, at most {@link Announcement#MAX_IPS} entries
 */
public record OperatorDecisions(BorderId borderId, Map<EgressIp, IpStatus> statuses) {

    /** The record format written now. */
    public static final int CURRENT_VERSION = 1;

    /** Validates and copies. */
    public OperatorDecisions {
        Objects.requireNonNull(borderId, "borderId");
        Objects.requireNonNull(statuses, "statuses");
        if (statuses.size() > Announcement.MAX_IPS) {
            throw new IllegalArgumentException(
                    "statuses: %d entries (expected: <= %d)".formatted(statuses.size(), Announcement.MAX_IPS));
        }
        statuses.forEach((ip, status) -> {
            Objects.requireNonNull(ip, "statuses: null ip");
            Objects.requireNonNull(status, "statuses: null status for " + ip);
        });
        statuses = Collections.unmodifiableMap(new TreeMap<>(statuses));
    }

    /**
     * No decision at all.
     *
     * @param borderId the Border
     * @return empty decisions
     */
    public static OperatorDecisions none(BorderId borderId) {
        return new OperatorDecisions(borderId, Map.of());
    }

    /**
     * The decisions with one more (or a replaced) entry.
     *
     * @param ip     the IP
     * @param status what the operator set
     * @return the new decisions
     */
    public OperatorDecisions with(EgressIp ip, IpStatus status) {
        TreeMap<EgressIp, IpStatus> next = new TreeMap<>(statuses);
        next.put(ip, status);
        return new OperatorDecisions(borderId, next);
    }

    /**
     * The decisions for the given IPs only (an IP no longer configured keeps no effect).
     *
     * @param configured the IPs this Border hosts
     * @return the decisions restricted to them
     */
    public OperatorDecisions retainOnly(Collection<EgressIp> configured) {
        TreeMap<EgressIp, IpStatus> kept = new TreeMap<>(statuses);
        kept.keySet().retainAll(configured);
        return new OperatorDecisions(borderId, kept);
    }

    /**
     * The decision for one IP.
     *
     * @param ip the IP
     * @return the status the operator set, empty if none
     */
    public Optional<IpStatus> statusOf(EgressIp ip) {
        return Optional.ofNullable(statuses.get(ip));
    }
}
