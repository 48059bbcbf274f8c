package dev.egress.app.dispatch;

import java.util.HashSet;
import java.util.Set;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Whether the link to one Border is in doubt: some connection to it has sent a PING that is not answered
 * yet ({@link LinkLiveness}). A new attempt waits until the doubt is settled instead of writing its request
 * into a connection that may be dead: once written there, a request may or may not have arrived, and it can
 * never be retried elsewhere; held back, it is either sent on a link that just answered or, when the
 * connection was closed as silent, certainly not sent. Healthy links answer a PING within a round trip, so
 * the wait is that short; a silent one ends it at {@code egress.dispatch.ping-timeout}.
 *
 * <p>One episode of doubt spans from the first unanswered PING to the moment no connection of the Border
 * has one; it ends silent when any of them was closed for want of an answer.
 */
final class LinkWatch {

    private final Set<Object> inDoubt = new HashSet<>(2);
    private Sinks.One<Boolean> episode;
    private boolean silentInEpisode;

    /**
     * A connection sent a PING and waits for its answer.
     *
     * @param connection the connection (its channel)
     */
    synchronized void doubt(Object connection) {
        if (inDoubt.add(connection) && episode == null) {
            episode = Sinks.one();
            silentInEpisode = false;
        }
    }

    /**
     * A connection's PING was answered (it read something), or the connection ended.
     *
     * @param connection the connection
     * @param silent     true when it was closed because nothing answered
     */
    void settle(Object connection, boolean silent) {
        Sinks.One<Boolean> ended = null;
        boolean alive = false;
        synchronized (this) {
            if (!inDoubt.remove(connection)) {
                return;
            }
            silentInEpisode |= silent;
            if (inDoubt.isEmpty()) {
                ended = episode;
                alive = !silentInEpisode;
                episode = null;
            }
        }
        if (ended != null) {
            // Outside the lock: waiters resume on this (event-loop) thread.
            ended.tryEmitValue(alive);
        }
    }

    /**
     * Waits for the current doubt, if any, to end.
     *
     * @return true at once when nothing is in doubt or when the link answered; false when a connection was
     *     closed as silent
     */
    Mono<Boolean> settled() {
        Sinks.One<Boolean> current;
        synchronized (this) {
            current = episode;
        }
        return current == null ? Mono.just(Boolean.TRUE) : current.asMono();
    }
}
