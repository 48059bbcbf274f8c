package dev.egress.app.delivery;

import dev.egress.app.tenants.RetryDelays;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * When a durable delivery's next attempt is due: the tenant's delays, spread by a jitter, or the target's
 * {@code Retry-After} held between a floor and a ceiling. A pure value: the random source and the time are the
 * caller's, so a test (or a replay of a decision) gets the same answer.
 *
 * @param delays            the delay before each attempt; their number is the number of attempts
 * @param jitter            the fraction each delay is spread by, either way (0 to 0.5)
 * @param retryAfterFloor   the shortest wait a {@code Retry-After} can ask for
 * @param retryAfterCeiling the longest wait a {@code Retry-After} can ask for
 */
public record RetrySchedule(RetryDelays delays, double jitter, Duration retryAfterFloor, Duration retryAfterCeiling) {

    /** The highest jitter: beyond it, a later step could come before an earlier one. */
    static final double MAX_JITTER = 0.5;

    /** The default schedule with ±20 % jitter and {@code Retry-After} held between 5 s and 10 h. */
    public static final RetrySchedule DEFAULT =
            new RetrySchedule(RetryDelays.DEFAULT, 0.2, Duration.ofSeconds(5), Duration.ofHours(10));

    /** Checks the bounds. */
    public RetrySchedule {
        check(jitter, retryAfterFloor, retryAfterCeiling);
    }

    static void check(double jitter, Duration floor, Duration ceiling) {
        if (!(jitter >= 0 && jitter <= MAX_JITTER)) {
            throw new IllegalArgumentException(
                    "egress.delivery.retry.jitter: %s (expected: 0 to %s)".formatted(jitter, MAX_JITTER));
        }
        if (floor.isNegative()) {
            throw new IllegalArgumentException(
                    "egress.delivery.retry.retry-after-floor: %s (expected: >= 0)".formatted(floor));
        }
        if (ceiling.compareTo(floor) < 0 || ceiling.compareTo(RetryDelays.MAX_DELAY) > 0) {
            throw new IllegalArgumentException(
                    "egress.delivery.retry.retry-after-ceiling: %s (expected: from the floor %s to %s)"
                            .formatted(ceiling, floor, RetryDelays.MAX_DELAY));
        }
    }

    /**
     * The wait before an attempt.
     *
     * @param attempt    the number of the attempt to schedule, from 1 (the first one, after acceptance)
     * @param retryAfter what the target's last answer asked for, or null: replaces the scheduled delay, held
     *                   between the floor and the ceiling, without jitter (the target named its time)
     * @param random     the jitter's source
     * @return the wait, or empty when the schedule has no such attempt (the webhook is given up)
     */
    public Optional<Duration> delayBefore(int attempt, @Nullable Duration retryAfter, RandomGenerator random) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt: %d (expected: >= 1)".formatted(attempt));
        }
        if (attempt > delays.attempts()) {
            return Optional.empty();
        }
        if (retryAfter != null && attempt > 1) {
            Duration held = retryAfter.compareTo(retryAfterFloor) < 0 ? retryAfterFloor : retryAfter;
            return Optional.of(held.compareTo(retryAfterCeiling) > 0 ? retryAfterCeiling : held);
        }
        Duration delay = delays.before(attempt);
        if (delay.isZero() || jitter == 0) {
            return Optional.of(delay);
        }
        // Uniform in [1 - jitter, 1 + jitter), in whole milliseconds.
        double factor = 1 + jitter * (2 * random.nextDouble() - 1);
        return Optional.of(Duration.ofMillis(Math.round(delay.toMillis() * factor)));
    }

    /**
     * When an attempt is due.
     *
     * @param attempt    the number of the attempt to schedule, from 1
     * @param after      when the previous attempt ended (or the webhook was accepted, for the first)
     * @param retryAfter what the target's last answer asked for, or null
     * @param random     the jitter's source
     * @return the time, or empty when the schedule has no such attempt
     */
    public Optional<Instant> dueAt(int attempt, Instant after, @Nullable Duration retryAfter, RandomGenerator random) {
        return delayBefore(attempt, retryAfter, random).map(after::plus);
    }
}
