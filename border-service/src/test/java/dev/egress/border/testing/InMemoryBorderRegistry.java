package dev.egress.border.testing;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.BorderRegistry;
import dev.egress.discovery.registry.DecisionStore;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A registry double for Spring-level tests: records every publish and the release, in order, and
 * holds the slot at once (or stays REGISTERING when told to).
 */
public final class InMemoryBorderRegistry implements BorderRegistry {

    /** One thing the Border did to its slot, in order. */
    public sealed interface Event {}

    /** @param announcement what was published */
    public record Published(Announcement announcement) implements Event {}

    /** The slot was released. */
    public record Released() implements Event {}

    private final List<Event> events = new CopyOnWriteArrayList<>();
    private volatile boolean holdSlot = true;
    private volatile InMemoryRegistration registration;
    private final InMemoryDecisionStore decisions = new InMemoryDecisionStore();

    /** Makes the next registration stay REGISTERING (registry unreachable). */
    public void withholdSlot() {
        holdSlot = false;
    }

    /**
     * Everything published or released so far.
     *
     * @return the events in order
     */
    public List<Event> events() {
        return List.copyOf(events);
    }

    /**
     * The announcement the slot holds now.
     *
     * @return the last published announcement, or null if released or never published
     */
    public Announcement held() {
        InMemoryRegistration r = registration;
        return r == null || r.state == RegistrationState.CLOSED ? null : r.current;
    }

    /**
     * The live registration, for state changes in tests.
     *
     * @return the registration or null
     */
    public InMemoryRegistration registration() {
        return registration;
    }

    @Override
    public Registration register(Announcement initial) {
        InMemoryRegistration r = new InMemoryRegistration(initial.republished(-1, Instant.now()));
        registration = r;
        if (holdSlot) {
            r.state = RegistrationState.REGISTERED;
            events.add(new Published(r.current));
        }
        return r;
    }

    /**
     * The one decision store of this double (every Border id gets it: a test runs one Border).
     *
     * @return the store
     */
    public InMemoryDecisionStore decisions() {
        return decisions;
    }

    @Override
    public DecisionStore decisions(BorderId borderId) {
        return decisions;
    }

    @Override
    public void close() {}

    /** The registration double. */
    public final class InMemoryRegistration implements Registration {

        private volatile Announcement current;
        private volatile RegistrationState state = RegistrationState.REGISTERING;
        private final List<Consumer<RegistrationState>> listeners = new CopyOnWriteArrayList<>();

        InMemoryRegistration(Announcement current) {
            this.current = current;
        }

        /**
         * Simulates the registry changing the state.
         *
         * @param next the new state
         */
        public void moveTo(RegistrationState next) {
            state = next;
            listeners.forEach(l -> l.accept(next));
        }

        @Override
        public Announcement current() {
            return current;
        }

        @Override
        public synchronized CompletableFuture<Announcement> update(Announcement next) {
            current = next.republished(current.generation(), Instant.now());
            events.add(new Published(current));
            return CompletableFuture.completedFuture(current);
        }

        @Override
        public RegistrationState state() {
            return state;
        }

        @Override
        public void onStateChange(Consumer<RegistrationState> listener) {
            listeners.add(listener);
        }

        @Override
        public synchronized void close() {
            if (state != RegistrationState.CLOSED) {
                state = RegistrationState.CLOSED;
                events.add(new Released());
            }
        }
    }
}
