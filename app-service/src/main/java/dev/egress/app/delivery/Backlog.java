package dev.egress.app.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What is waiting in the store at one moment, for the operators' gauges and the fleet view.
 *
 * @param at        the moment
 * @param due       per tenant, records due and not leased (pending ones whose time came, leased ones whose lease
 *                  ended); tenants with none are absent
 * @param dead      per tenant, dead records kept; tenants with none are absent
 * @param oldestDue when the longest-waiting due record became due, or null when none is due
 * @param complete  false when the read stopped at its bound: then the counts are lower bounds
 */
public record Backlog(
        Instant at,
        Map<String, Long> due,
        Map<String, Long> dead,
        @Nullable Instant oldestDue,
        boolean complete) {

    /** Copies the maps, sorted by tenant. */
    public Backlog {
        due = Collections.unmodifiableMap(new TreeMap<>(due));
        dead = Collections.unmodifiableMap(new TreeMap<>(dead));
    }

    /**
     * How long the oldest due record has waited.
     *
     * @return zero when none is due
     */
    public Duration oldestDueAge() {
        return oldestDue == null || oldestDue.isAfter(at) ? Duration.ZERO : Duration.between(oldestDue, at);
    }
}
