package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.Announcement;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.SemaphoreLease;

/**
 * Where one Border's registration stands, as one immutable value per phase. A registration holds exactly
 * one of them (in {@link RegistrationContext}), so a question such as "is an acquire in flight on this
 * session?" is answered by the phase's type instead of by a guard over several nullable fields.
 *
 * <pre>
 *   New ──► Opening ──► Unheld ──► Publishing ──► Held ──► Publishing …
 *              ▲  │        ▲           │            │
 *              │  ▼        └───────────┘ (failed)   │ slot missing ──► Unheld
 *           BackingOff ◄── (lost session, failed step, from any phase with a session)
 *   any phase with a session ── reattached ──► Opening (that session retiring)
 *   any ──► Closed
 * </pre>
 *
 * <p>A reattached session is not trusted (see {@link SessionSupervisor}): it becomes the <em>retiring</em>
 * session, which keeps the slot while a successor is opened and publishes; phases before the successor's
 * first successful acquire carry it, {@link Held} never does.
 */
sealed interface RegistrationPhase {

    /** Not started yet. */
    record New() implements RegistrationPhase {}

    /**
     * A session is being opened.
     *
     * @param attempt  completes with the connected session
     * @param retiring the reattached session that holds the slot meanwhile, or null
     */
    record Opening(
            CompletableFuture<CoordinationSession> attempt,
            @Nullable CoordinationSession retiring) implements RegistrationPhase {
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
     * @param retiring the reattached session that holds the slot meanwhile, or null
     */
    record BackingOff(
            @Nullable ScheduledFuture<?> retry, @Nullable CoordinationSession retiring) implements RegistrationPhase {

        @Override
        public String toString() {
            return "BackingOff[retiring=" + (retiring != null) + "]";
        }
    }

    /** Closed: the slot was released, nothing runs any more. */
    record Closed() implements RegistrationPhase {}

    /** A phase with a connected session (the semaphore existed when it opened). */
    sealed interface Connected extends RegistrationPhase {

        /**
         * The session.
         *
         * @return the session
         */
        Link link();

        /**
         * The session being moved away from, or null.
         *
         * @return the retiring session
         */
        @Nullable
        CoordinationSession retiring();

        /**
         * What the registry holds for us, as far as we know.
         *
         * @return the slot, or null if nothing is held
         */
        @Nullable
        Slot held();

        /**
         * The same phase without its slot (it went missing from the registry).
         *
         * @return the phase that holds nothing
         */
        Connected withoutSlot();

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

    /** A connected phase with no acquire in flight. */
    sealed interface Settled extends Connected {

        @Override
        Settled withoutSlot();
    }

    /**
     * A session is up, nothing is held and no acquire is in flight: right after the session opened, after
     * the slot went missing, and while a failed first acquire waits for its retry.
     *
     * @param link     the session
     * @param retiring the reattached session that still holds the slot, or null
     */
    record Unheld(Link link, @Nullable CoordinationSession retiring) implements Settled {
        public Unheld {
            Objects.requireNonNull(link, "link");
        }

        @Override
        public String toString() {
            return "Unheld[link=" + link + ", retiring=" + (retiring != null) + "]";
        }

        @Override
        public @Nullable Slot held() {
            return null;
        }

        @Override
        public Unheld withoutSlot() {
            return this;
        }
    }

    /**
     * The slot is held and no acquire is in flight. The retiring session is gone by now: the successor's
     * first acquire stopped it.
     *
     * @param link the session
     * @param slot what the registry holds
     */
    record Held(Link link, Slot slot) implements Settled {
        public Held {
            Objects.requireNonNull(link, "link");
            Objects.requireNonNull(slot, "slot");
        }

        @Override
        public @Nullable CoordinationSession retiring() {
            return null;
        }

        @Override
        public @Nullable Slot held() {
            return slot;
        }

        @Override
        public Unheld withoutSlot() {
            return new Unheld(link, null);
        }
    }

    /**
     * An acquire is in flight (one at a time per session; updates meanwhile coalesce into the next one).
     *
     * @param before what held before the acquire, and what holds again if it fails
     * @param target the announcement being acquired
     * @param data   its exact owner data (signatures differ per write)
     */
    record Publishing(Settled before, Announcement target, byte[] data) implements Connected {
        public Publishing {
            Objects.requireNonNull(before, "before");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(data, "data");
        }

        @Override
        public Link link() {
            return before.link();
        }

        @Override
        public @Nullable CoordinationSession retiring() {
            return before.retiring();
        }

        @Override
        public @Nullable Slot held() {
            return before.held();
        }

        @Override
        public Publishing withoutSlot() {
            return new Publishing(before.withoutSlot(), target, data);
        }

        @Override
        public String toString() {
            return "Publishing[before=" + before + ", generation=" + target.generation() + "]";
        }
    }

    /**
     * A connected session with the id it had when it opened (the SDK forgets the id once the session is
     * lost, and the logs still need it).
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

    /**
     * Our slot in the registry semaphore.
     *
     * @param lease        the lease, to release it on close
     * @param announcement what it carries
     * @param data         the exact owner data written, to recognise it in a describe
     */
    record Slot(SemaphoreLease lease, Announcement announcement, byte[] data) {
        public Slot {
            Objects.requireNonNull(lease, "lease");
            Objects.requireNonNull(announcement, "announcement");
            Objects.requireNonNull(data, "data");
        }

        @Override
        public String toString() {
            return "Slot[generation=" + announcement.generation() + "]";
        }
    }
}
