package dev.egress.discovery.registry.ydb;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;
import tech.ydb.coordination.CoordinationSession;

/**
 * Where a {@link SessionKeeper}'s coordination session stands, as one immutable value per phase. A keeper holds
 * exactly one, so "is a session up, and on which?" is answered by the phase's type instead of by a guard over
 * nullable fields and flags.
 *
 * <pre>
 *   Idle ──► Opening ──► Finding ──► Up ◄─┐
 *              ▲  │         ▲  │     │    │ (found again)
 *              │  │         │  └─────┼────┘
 *              │  │         └────────┘ semaphore missing
 *           BackingOff ◄── (failed open or step, lost session; from any phase but Idle and Closed)
 *   Finding/Up ── reattached ──► Opening (that session retiring)
 *   any ──► Closed
 * </pre>
 *
 * <p>A reattached session is not trusted (SDK 2.2.10, see {@link SessionKeeper}): it becomes the
 * <em>retiring</em> session, kept open while a successor opens, until the keeper's owner says it may go (a
 * publisher once its slot moved, a watcher at once).
 */
sealed interface SessionPhase {

    /**
     * The reattached session kept open meanwhile, or null.
     *
     * @return the retiring session
     */
    @Nullable
    CoordinationSession retiring();

    /** Not started yet. */
    record Idle() implements SessionPhase {
        @Override
        public @Nullable CoordinationSession retiring() {
            return null;
        }
    }

    /**
     * A session is being opened.
     *
     * @param attempt  completes with the connected session
     * @param retiring the reattached session kept meanwhile, or null
     */
    record Opening(
            CompletableFuture<CoordinationSession> attempt,
            @Nullable CoordinationSession retiring) implements SessionPhase {
        public Opening {
            Objects.requireNonNull(attempt, "attempt");
        }

        @Override
        public String toString() {
            return "Opening[retiring=" + (retiring != null) + "]";
        }
    }

    /**
     * No session: waiting before opening the next one.
     *
     * @param retry    the scheduled open (null only if the loop was already closed)
     * @param retiring the reattached session kept meanwhile, or null
     */
    record BackingOff(
            @Nullable ScheduledFuture<?> retry, @Nullable CoordinationSession retiring) implements SessionPhase {
        @Override
        public String toString() {
            return "BackingOff[retiring=" + (retiring != null) + "]";
        }
    }

    /** Closed by the owner: nothing runs any more. */
    record Closed() implements SessionPhase {
        @Override
        public @Nullable CoordinationSession retiring() {
            return null;
        }
    }

    /** A phase with a connected session. */
    sealed interface Connected extends SessionPhase {

        /**
         * The session.
         *
         * @return the session with its id
         */
        Link link();

        /**
         * Whether this phase belongs to {@code session}.
         *
         * @param session a session
         * @return true if it is this phase's session
         */
        default boolean on(CoordinationSession session) {
            return link().session() == session;
        }
    }

    /**
     * A session is up but the semaphore is not known to exist (a read-only participant looking for it, or a
     * read found it missing): the keeper is finding or creating it.
     *
     * @param link     the session
     * @param retiring the reattached session kept meanwhile, or null
     */
    record Finding(Link link, @Nullable CoordinationSession retiring) implements Connected {
        public Finding {
            Objects.requireNonNull(link, "link");
        }

        @Override
        public String toString() {
            return "Finding[" + link + ", retiring=" + (retiring != null) + "]";
        }
    }

    /**
     * A session is up and the semaphore exists: the owner reads or publishes on it.
     *
     * @param link     the session
     * @param retiring the reattached session kept until the owner retires it, or null
     */
    record Up(Link link, @Nullable CoordinationSession retiring) implements Connected {
        public Up {
            Objects.requireNonNull(link, "link");
        }

        @Override
        public String toString() {
            return "Up[" + link + ", retiring=" + (retiring != null) + "]";
        }
    }

    /**
     * A connected session with the id it had when it opened (the SDK forgets the id once the session is lost,
     * and the logs still need it).
     *
     * @param session the session
     * @param id      its id
     */
    record Link(CoordinationSession session, long id) {
        public Link {
            Objects.requireNonNull(session, "session");
        }

        static Link of(CoordinationSession session) {
            return new Link(session, session.getId());
        }

        @Override
        public String toString() {
            return "session " + id;
        }
    }
}
