package dev.egress.app.delivery.worker;

import dev.egress.app.delivery.DeliveryRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Claimed records waiting, in this App, for a place at their destination: a destination that is only full (all its
 * places taken, not backing off) gets its next record as soon as one of its attempts ends, instead of the record
 * being handed back to the store and found again by a later poll. A backlog for one destination then drains at the
 * pace its places allow. A record waits at most {@code patience} (half its lease): past that it is handed back, so
 * its lease never runs out while it waits and no other App sends it meanwhile.
 */
final class WaitingRecords {

    /**
     * A record that waits.
     *
     * @param record the claimed record
     * @param since  when it began to wait
     */
    record Held(DeliveryRecord record, Instant since) {}

    private final ConcurrentMap<String, Queue<Held>> byDestination = new ConcurrentHashMap<>();
    private final AtomicInteger size = new AtomicInteger();
    private final Duration patience;

    WaitingRecords(Duration patience) {
        this.patience = patience;
    }

    /**
     * Keeps a record until its destination has a place.
     *
     * @param destination its destination
     * @param record      the record
     * @param now         the time
     */
    void hold(String destination, DeliveryRecord record, Instant now) {
        size.incrementAndGet();
        byDestination
                .computeIfAbsent(destination, d -> new ConcurrentLinkedQueue<>())
                .add(new Held(record, now));
    }

    /**
     * The next record waiting for a destination, oldest first.
     *
     * @param destination the destination that has a place now
     * @return the record, or null when none waits
     */
    @Nullable
    Held next(String destination) {
        Queue<Held> queue = byDestination.get(destination);
        Held held = queue == null ? null : queue.poll();
        if (held != null) {
            size.decrementAndGet();
        }
        return held;
    }

    /**
     * Whether a record has waited too long to go on waiting.
     *
     * @param held the record
     * @param now  the time
     * @return true when it should be handed back
     */
    boolean expired(Held held, Instant now) {
        return held.since().plus(patience).isBefore(now);
    }

    /**
     * How many records wait.
     *
     * @return the count
     */
    int size() {
        return size.get();
    }

    /**
     * Takes every waiting record (when the workers stop).
     *
     * @return the records
     */
    List<DeliveryRecord> takeAll() {
        List<DeliveryRecord> all = new ArrayList<>();
        for (String destination : byDestination.keySet()) {
            for (Held held = next(destination); held != null; held = next(destination)) {
                all.add(held.record());
            }
        }
        return all;
    }
}
