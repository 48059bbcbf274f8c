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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the operator decided for a Border's IPs: the status each IP was last set to through the operator API
 * (or {@code DISABLED} for every IP after a fail-closed start). An IP without an entry follows the
 * configuration ({@code egress.border.initial-status}). An IP in {@code released} was moved to another Border
 * by an operator: still hosted, announced as released, no claim ({@link dev.egress.discovery.registry.AnnouncedIp#RELEASED}).
 * Immutable; entries are sorted by IP.
 *
 * @param borderId the Border the decisions belong to
 * @param statuses IP (public address) to status, at most {@link Announcement#MAX_IPS} entries
 * @param released IPs released here, at most {@link Announcement#MAX_IPS}
 * @param sequence how many records this Border stored before this one plus one (0: never stored); every write
 *                 stores the next, so a record older than the last one this Border remembers storing is a replay
 */
public record OperatorDecisions(
        BorderId borderId, Map<EgressIp, IpStatus> statuses, Set<EgressIp> released, long sequence) {

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
        Objects.requireNonNull(released, "released");
        if (released.size() > Announcement.MAX_IPS) {
            throw new IllegalArgumentException(
                    "released: %d entries (expected: <= %d)".formatted(released.size(), Announcement.MAX_IPS));
        }
        released = Collections.unmodifiableSortedSet(new TreeSet<>(released));
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence: %d (expected: >= 0)".formatted(sequence));
        }
    }

    /**
     * Decisions not stored yet.
     *
     * @param borderId the Border
     * @param statuses IP to status
     * @param released IPs released here
     */
    public OperatorDecisions(BorderId borderId, Map<EgressIp, IpStatus> statuses, Set<EgressIp> released) {
        this(borderId, statuses, released, 0);
    }

    /**
     * Decisions without a release.
     *
     * @param borderId the Border
     * @param statuses IP to status
     */
    public OperatorDecisions(BorderId borderId, Map<EgressIp, IpStatus> statuses) {
        this(borderId, statuses, Set.of(), 0);
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
        return new OperatorDecisions(borderId, next, released, sequence);
    }

    /**
     * The decisions with one IP released (moved to another Border) or claimed again.
     *
     * @param ip      the IP
     * @param release whether it is released
     * @return the new decisions
     */
    public OperatorDecisions withRelease(EgressIp ip, boolean release) {
        TreeSet<EgressIp> next = new TreeSet<>(released);
        if (release) {
            next.add(ip);
        } else {
            next.remove(ip);
        }
        return new OperatorDecisions(borderId, statuses, next, sequence);
    }

    /**
     * The same decisions under another sequence number (the next write's).
     *
     * @param next the sequence
     * @return the decisions numbered {@code next}
     */
    public OperatorDecisions withSequence(long next) {
        return new OperatorDecisions(borderId, statuses, released, next);
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
        TreeSet<EgressIp> keptReleased = new TreeSet<>(released);
        keptReleased.retainAll(configured);
        return new OperatorDecisions(borderId, kept, keptReleased, sequence);
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
