package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.ydb.SessionPhase.Link;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.SemaphoreLease;

/**
 * Where one Border's slot stands on the session its {@link SessionKeeper} keeps, as one immutable value per
 * phase. A registration holds exactly one of them (in {@link RegistrationContext}), so a question such as "is
 * an acquire in flight on this session?" is answered by the phase's type instead of by a guard over several
 * nullable fields. The session's own phases (opening, backing off, the retiring session after a reattach) are
 * the keeper's {@link SessionPhase}.
 *
 * <pre>
 *   Detached ──(session ready)──► Unheld ──► Publishing ──► Held ──► Publishing …
 *                                   ▲           │            │
 *                                   └───────────┘ (failed)   │ slot missing ──► Unheld
 *   any ──(session dropped)──► Detached
 * </pre>
 */
sealed interface RegistrationPhase {

    /** No session is ready: nothing to publish on. */
    record Detached() implements RegistrationPhase {}

    /** A phase on a ready session. */
    sealed interface Connected extends RegistrationPhase {

        /**
         * The session.
         *
         * @return the session
         */
        Link link();

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
     * A session is up, nothing is held on it and no acquire is in flight: right after the session opened
     * (a retiring predecessor may still hold the slot), after the slot went missing, and while a failed first
     * acquire waits for its retry.
     *
     * @param link the session
     */
    record Unheld(Link link) implements Settled {
        public Unheld {
            Objects.requireNonNull(link, "link");
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
     * The slot is held and no acquire is in flight.
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
        public @Nullable Slot held() {
            return slot;
        }

        @Override
        public Unheld withoutSlot() {
            return new Unheld(link);
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
