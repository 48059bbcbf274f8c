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
 * and a record that cannot be read (the read failed after its retries, the bytes fail the codec, or their
 * signature does not verify), a record missing or older than the one this Border remembers storing
 * ({@link StateFile}), or a state file that cannot be read, starts
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

    /** What this Border remembers of its last stored record ({@link StateFile}). */
    public sealed interface Memory {}

    /** No state file: a deleted or replayed record cannot be told from a new Border's. */
    public record Forgetful() implements Memory {}

    /**
     * The sequence of the last record this Border stored.
     *
     * @param sequence 0 when it never stored one
     */
    public record Remembers(long sequence) implements Memory {}

    /**
     * The state file cannot be read.
     *
     * @param reason why
     */
    public record Unreadable(String reason) implements Memory {}

    /**
     * Applies the rule without a memory of earlier records.
     *
     * @param borderId   this Border
     * @param configured the IPs it hosts, in configuration order
     * @param initial    {@code egress.border.initial-status}
     * @param read       what reading the record gave
     * @param records    the record's form (verifies its signature on the trust chain)
     * @return the statuses to start with
     */
    public static StartupDecisions decide(
            BorderId borderId, List<EgressIp> configured, IpStatus initial, Read read, DecisionRecords records) {
        return decide(borderId, configured, initial, read, records, new Forgetful());
    }

    /**
     * Applies the rule.
     *
     * @param borderId   this Border
     * @param configured the IPs it hosts, in configuration order
     * @param initial    {@code egress.border.initial-status}
     * @param read       what reading the record gave
     * @param records    the record's form (verifies its signature on the trust chain)
     * @param memory     what this Border remembers of its last stored record: a record missing or older than
     *                   that is a deletion or a replay, and fails closed
     * @return the statuses to start with
     */
    public static StartupDecisions decide(
            BorderId borderId,
            List<EgressIp> configured,
            IpStatus initial,
            Read read,
            DecisionRecords records,
            Memory memory) {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(read, "read");
        long remembered = memory instanceof Remembers r ? r.sequence() : 0;
        if (read instanceof ReadFailed failed) {
            return failClosed(borderId, configured, "the read failed: " + failed.reason(), remembered);
        }
        if (memory instanceof Unreadable unreadable) {
            return failClosed(
                    borderId, configured, "egress.decisions.state-file is unreadable: " + unreadable.reason(), 0);
        }
        if (read instanceof Stored stored) {
            OperatorDecisions decoded;
            try {
                decoded = records.decode(stored.record(), borderId);
            } catch (InvalidDecisionsException e) {
                return failClosed(
                        borderId, configured, "the stored record is unreadable: " + e.getMessage(), remembered);
            }
            if (decoded.sequence() < remembered) {
                return failClosed(
                        borderId,
                        configured,
                        "the stored record is number %d, older than number %d, the last this Border stored: a replay"
                                .formatted(decoded.sequence(), remembered),
                        remembered);
            }
            return restored(decoded, configured, initial, DecisionsState.Kind.RESTORED);
        }
        if (remembered > 0) {
            return failClosed(
                    borderId,
                    configured,
                    "the stored record is missing, though this Border stored record number %d (deleted?)"
                            .formatted(remembered),
                    remembered);
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

    /** Every IP DISABLED; numbered {@code sequence}, so that the next write outnumbers what the Border remembers. */
    private static StartupDecisions failClosed(
            BorderId borderId, List<EgressIp> configured, String reason, long sequence) {
        Map<EgressIp, IpStatus> statuses = new LinkedHashMap<>();
        configured.forEach(ip -> statuses.put(ip, IpStatus.DISABLED));
        return new StartupDecisions(
                new OperatorDecisions(borderId, statuses, Set.of(), sequence),
                statuses,
                DecisionsState.failClosed(reason),
                Set.of());
    }
}
