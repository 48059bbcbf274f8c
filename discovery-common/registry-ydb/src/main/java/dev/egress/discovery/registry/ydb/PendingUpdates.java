package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.Announcement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The futures returned by {@code Registration.update()} that wait for the registry to hold their
 * generation. Updates coalesce (only the latest announcement is ever acquired), so one publish may
 * settle several of them. Not thread-safe: the registration's loop owns it.
 */
final class PendingUpdates {

    private record Pending(long generation, CompletableFuture<Announcement> future) {}

    private final List<Pending> pending = new ArrayList<>();

    void add(long generation, CompletableFuture<Announcement> future) {
        pending.add(new Pending(generation, future));
    }

    /**
     * The registry holds {@code held}: completes every update it covers. A superseded update completes
     * with what superseded it, since that is what App sees.
     */
    void heldUpTo(Announcement held) {
        for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending update = it.next();
            if (update.generation() <= held.generation()) {
                update.future().complete(held);
                it.remove();
            }
        }
    }

    /** Fails every update up to a generation. */
    void failUpTo(long generation, Throwable failure) {
        for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending update = it.next();
            if (update.generation() <= generation) {
                update.future().completeExceptionally(failure);
                it.remove();
            }
        }
    }
}
