package dev.egress.border.decisions;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The startup rule: what each configured IP starts as, given what the registry said about the stored
 * decisions. A decision for a configured IP wins over {@code egress.border.initial-status}; an IP without one
 * starts with the initial status; a decision for an IP no longer configured is ignored (and reported once);
 * and a record that cannot be read (the read failed after its retries, or the bytes fail the codec) starts
 * every IP {@code DISABLED}, with the decisions set to exactly that, so that the first operator change stores
 * a record that says what is running. Pure: no I/O, no logging.
 *
 * @param decisions what the Border now holds as its decisions (the next write starts from it)
 * @param statuses  the status of every configured IP, in configuration order
 * @param state     the resulting state
 * @param ignored   stored decisions for IPs this Border no longer hosts
 */
public record StartupDecisions(
        OperatorDecisions decisions, Map<EgressIp, IpStatus> statuses, DecisionsState state, Set<EgressIp> ignored) {

    /** Copies. */
    public StartupDecisions {
        Objects.requireNonNull(decisions, "decisions");
        Objects.requireNonNull(state, "state");
        statuses = Collections.unmodifiableMap(new LinkedHashMap<>(statuses));
        ignored = Set.copyOf(ignored);
    }

    /** What reading the stored record gave. */
    public sealed interface Read {}

    /** Nothing was ever stored. */
    public record NothingStored() implements Read {}

    /**
     * A record was read.
     *
     * @param record its bytes
     */
    public record Stored(byte[] record) implements Read {}

    /**
     * The read failed (after its retries).
     *
     * @param reason why
     */
    public record ReadFailed(String reason) implements Read {}

    /**
     * Applies the rule.
     *
     * @param borderId   this Border
     * @param configured the IPs it hosts, in configuration order
     * @param initial    {@code egress.border.initial-status}
     * @param read       what reading the record gave
     * @param codec      the record's codec
     * @return the statuses to start with
     */
    public static StartupDecisions decide(
            BorderId borderId, List<EgressIp> configured, IpStatus initial, Read read, OperatorDecisionsCodec codec) {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(read, "read");
        if (read instanceof ReadFailed failed) {
            return failClosed(borderId, configured, "the read failed: " + failed.reason());
        }
        if (read instanceof Stored stored) {
            OperatorDecisions decoded;
            try {
                decoded = codec.decode(stored.record(), borderId);
            } catch (InvalidDecisionsException e) {
                return failClosed(borderId, configured, "the stored record is unreadable: " + e.getMessage());
            }
            return restored(decoded, configured, initial, DecisionsState.Kind.RESTORED);
        }
        return restored(OperatorDecisions.none(borderId), configured, initial, DecisionsState.Kind.NOTHING_STORED);
    }

    private static StartupDecisions restored(
            OperatorDecisions stored, List<EgressIp> configured, IpStatus initial, DecisionsState.Kind kind) {
        Set<EgressIp> ignored = new TreeSet<>(stored.statuses().keySet());
        configured.forEach(ignored::remove);
        OperatorDecisions kept = stored.retainOnly(configured);
        Map<EgressIp, IpStatus> statuses = new LinkedHashMap<>();
        for (EgressIp ip : configured) {
            Optional<IpStatus> decided = kept.statusOf(ip);
            statuses.put(ip, decided.orElse(initial));
        }
        return new StartupDecisions(kept, statuses, DecisionsState.of(kind), ignored);
    }

    private static StartupDecisions failClosed(BorderId borderId, List<EgressIp> configured, String reason) {
        Map<EgressIp, IpStatus> statuses = new LinkedHashMap<>();
        configured.forEach(ip -> statuses.put(ip, IpStatus.DISABLED));
        return new StartupDecisions(
                new OperatorDecisions(borderId, statuses), statuses, DecisionsState.failClosed(reason), Set.of());
    }
}
