package dev.egress.app.attempts;

import dev.egress.discovery.web.problem.Problem;
import org.jspecify.annotations.Nullable;

/**
 * How a run of attempts ended: with the value of the attempt that delivered, or with the problem of the last one
 * (a failure that must not be retried, every candidate tried, retries or time spent).
 *
 * @param <T> the value of a delivered run
 */
public sealed interface AttemptOutcome<T> {

    /**
     * An attempt delivered.
     *
     * @param value what it is worth
     * @param <T>   its type
     */
    record Delivered<T>(T value) implements AttemptOutcome<T> {}

    /**
     * No attempt delivered.
     *
     * @param problem what the caller is told, with {@code targetContacted}
     * @param last    the last attempt's result, or null when none was made
     * @param <T>     the value a delivered run would have had
     */
    record Failed<T>(Problem problem, @Nullable AttemptResult last) implements AttemptOutcome<T> {}
}
