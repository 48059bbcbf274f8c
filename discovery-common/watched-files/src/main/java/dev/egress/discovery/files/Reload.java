package dev.egress.discovery.files;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one look at a {@link WatchedFile} found, when it found something new: told to
 * {@link WatchedFile#onReload} listeners and counted as {@code egress.file.reloads{file,outcome}}.
 *
 * @param outcome what happened
 * @param error   why the content was refused or could not be read; null when applied
 * @param at      when
 */
public record Reload(Outcome outcome, @Nullable String error, Instant at) {

    /** What a look at a changed file led to. */
    public enum Outcome {
        /** New content parsed and is the value now. */
        APPLIED,
        /** New content did not parse: the last good value stays. */
        REJECTED,
        /** The file could not be read: the last good value stays, or the unreadable value when there is one. */
        UNREADABLE;

        /**
         * The metric tag.
         *
         * @return the outcome in lower case
         */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Validates the components. */
    public Reload {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(at, "at");
        if ((outcome == Outcome.APPLIED) != (error == null)) {
            throw new IllegalArgumentException(
                    "error: %s (expected: null exactly when the outcome is APPLIED, is %s)".formatted(error, outcome));
        }
    }
}
