package dev.egress.app.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * What follows an attempt of a durable delivery: done, another attempt at a time, or given up. The verdict of
 * the {@link AttemptOutcome} and the tenant's {@link RetrySchedule}, put together; pure, like both.
 */
public sealed interface NextAttempt {

    /** The target took it. */
    record Delivered() implements NextAttempt {}

    /**
     * Another attempt.
     *
     * @param attempt its number, from 1
     * @param at      when it is due
     */
    record At(int attempt, Instant at) implements NextAttempt {}

    /**
     * Given up: the record is {@code dead}.
     *
     * @param exhausted true when the schedule ran out, false when the outcome stops it at once
     */
    record Dead(boolean exhausted) implements NextAttempt {}

    /**
     * Decides.
     *
     * @param outcome  what the attempt came to
     * @param attempts how many attempts were made, this one included
     * @param now      when it ended
     * @param schedule the tenant's schedule
     * @param random   the jitter's source
     * @return the next step
     */
    static NextAttempt after(
            AttemptOutcome outcome, int attempts, Instant now, RetrySchedule schedule, RandomGenerator random) {
        return switch (outcome.verdict()) {
            case DELIVERED -> new Delivered();
            case STOP -> new Dead(false);
            case RETRY_LATER -> {
                Duration retryAfter = outcome instanceof AttemptOutcome.Answered answered
                        ? RetryAfter.parse(answered.retryAfter(), now).orElse(null)
                        : null;
                Optional<Instant> due = schedule.dueAt(attempts + 1, now, retryAfter, random);
                yield due.<NextAttempt>map(at -> new At(attempts + 1, at)).orElseGet(() -> new Dead(true));
            }
        };
    }
}
