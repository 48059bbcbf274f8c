package dev.egress.border.decisions;

import dev.egress.border.UnavailableException;
import dev.egress.discovery.registry.Announcement;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * How a change is announced, and how it is taken back if its record cannot be stored.
 *
 * @param apply applies the change locally and announces it
 * @param undo  applies the state before the change again and announces it
 */
record Announce(Supplier<CompletableFuture<Announcement>> apply, Supplier<CompletableFuture<Announcement>> undo) {

    /** For a record stored again unchanged: the announcement stays as it is. */
    static final Announce NOTHING = new Announce(Announce::unchanged, Announce::unchanged);

    /** Applies and announces the change; a refusal to apply it (not hosted) fails the future. */
    CompletableFuture<Announcement> start() {
        return run(apply);
    }

    /** Applies the state before the change again and announces it. */
    CompletableFuture<Announcement> takeBack() {
        return run(undo);
    }

    /**
     * Takes the change back after its record could not be stored, and fails.
     *
     * @param cause why the record was not stored
     * @return fails with {@link UnavailableException} (503) once the change is announced back away
     */
    CompletableFuture<Announcement> takeBackAfter(Throwable cause) {
        return takeBack().handle((undone, undoFailure) -> {
            throw new UnavailableException(
                    "the decision could not be stored in the registry, so it was taken back: " + cause);
        });
    }

    private static CompletableFuture<Announcement> run(Supplier<CompletableFuture<Announcement>> step) {
        try {
            return step.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static CompletableFuture<Announcement> unchanged() {
        return CompletableFuture.completedFuture(null);
    }
}
