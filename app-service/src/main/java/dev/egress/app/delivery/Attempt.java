package dev.egress.app.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One attempt of a durable delivery as the attempt log keeps it.
 *
 * @param at           when it started
 * @param egressIp     the source IP it left from, or null when nothing left
 * @param borderId     the Border that carried it, or null
 * @param outcome      what it came to ({@code delivered}, {@code retry}, {@code stop}, ...)
 * @param reason       the problem slug or reason, or null
 * @param targetStatus the target's HTTP status, or null when the target did not answer
 * @param duration     how long it took
 * @param excerpt      the start of the target's answer, cut to {@link #MAX_EXCERPT} characters, or null
 */
public record Attempt(
        Instant at,
        @Nullable String egressIp,
        @Nullable String borderId,
        String outcome,
        @Nullable String reason,
        @Nullable Integer targetStatus,
        Duration duration,
        @Nullable String excerpt) {

    /** The longest excerpt kept: the log is for people, and rows stay small. */
    public static final int MAX_EXCERPT = 1024;

    /** Validates and bounds the excerpt. */
    public Attempt {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration: %s (expected: >= 0)".formatted(duration));
        }
        if (excerpt != null && excerpt.length() > MAX_EXCERPT) {
            excerpt = excerpt.substring(0, MAX_EXCERPT);
        }
    }

    /**
     * An attempt as stored: its place in the record's history.
     *
     * @param series  the series it belongs to
     * @param number  its number in the series, from 1
     * @param attempt what happened
     */
    public record Logged(int series, int number, Attempt attempt) {}
}
