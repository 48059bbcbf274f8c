package dev.egress.app.fleet;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Whether the link to one Border can take a new call, as its connections' PINGs tell ({@link LinkLiveness}).
 * A connection is <em>in doubt</em> while a PING waits for its answer, and <em>silent</em> once none came in
 * time. A new call waits while some connection is in doubt instead of being written into one that may be
 * dead: once written there, a request may or may not arrive and can never be retried elsewhere; held back,
 * it is either sent on a link that just answered or, when the link went silent, certainly not sent. A
 * healthy link answers within a round trip, so the wait is that short; a silent one ends it at
 * {@code egress.dispatch.ping-timeout}. While a connection is silent, new calls are not sent at all.
 *
 * <p>One episode of doubt spans from the first unanswered PING to the moment no connection is in doubt; it
 * ends silent when any of them went silent.
 */
final class LinkWatch {

    private static final Mono<Boolean> ALIVE = Mono.just(Boolean.TRUE);
    private static final Mono<Boolean> SILENT = Mono.just(Boolean.FALSE);

    private final Set<Object> inDoubt = new HashSet<>(2);
    private final Set<Object> silent = new HashSet<>(2);
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
     * A connection's PING went unanswered: no new call goes to this Border until it reads again or ends.
     *
     * @param connection the connection
     */
    void silent(Object connection) {
        Sinks.One<Boolean> ended;
        synchronized (this) {
            silent.add(connection);
            silentInEpisode = true;
            ended = leaveDoubt(connection);
        }
        emit(ended, false);
    }

    /**
     * A connection read something (its peer is alive), or it ended.
     *
     * @param connection the connection
     */
    void settle(Object connection) {
        Sinks.One<Boolean> ended;
        boolean alive;
        synchronized (this) {
            silent.remove(connection);
            alive = !silentInEpisode;
            ended = leaveDoubt(connection);
        }
        emit(ended, alive);
    }

    /** Under the lock: the episode that ends when this connection leaves doubt, if it was the last. */
    private Sinks.One<Boolean> leaveDoubt(Object connection) {
        if (!inDoubt.remove(connection) || !inDoubt.isEmpty()) {
            return null;
        }
        Sinks.One<Boolean> ended = episode;
        episode = null;
        return ended;
    }

    private static void emit(Sinks.One<Boolean> ended, boolean alive) {
        if (ended != null) {
            // Outside the lock: waiters resume on this (event-loop) thread.
            ended.tryEmitValue(alive);
        }
    }

    /**
     * Whether a connection of this link is silent now.
     *
     * @return true while one is
     */
    synchronized boolean silentNow() {
        return !silent.isEmpty();
    }

    /**
     * Waits for the current doubt, if any, to end.
     *
     * @param bound the longest wait; past it the link counts as silent
     * @return true when nothing is in doubt or the link answered; false while a connection is silent, when
     *     the doubt ended with one going silent, or after {@code bound}
     */
    Mono<Boolean> settled(Duration bound) {
        Sinks.One<Boolean> current;
        synchronized (this) {
            if (!silent.isEmpty()) {
                return SILENT;
            }
            current = episode;
        }
        // Only a real wait gets a timer: a timeout on the usual, already known answer would still schedule
        // and cancel a task on Reactor's timer threads for every call (and, being the shortest timer, wake
        // one), about 5 % of App's CPU per delivery in the profile.
        return current == null ? ALIVE : current.asMono().timeout(bound, SILENT);
    }
}
