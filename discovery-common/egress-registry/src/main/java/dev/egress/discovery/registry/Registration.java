package dev.egress.discovery.registry;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A Border's slot in the registry (publish side). Keeps the slot true on its own: re-registers after a
 * lost session with backoff, and re-checks the slot after a reconnect.
 */
public interface Registration extends AutoCloseable {

    /**
     * The announcement last accepted for publication (the registry holds it once {@link #state()} is
     * {@link RegistrationState#REGISTERED}).
     *
     * @return the current announcement
     */
    Announcement current();

    /**
     * Replaces the whole announcement. The registration stamps it with the next generation and the
     * current time.
     *
     * @param next the new content (generation and publish time are overwritten)
     * @return completes with the published announcement once the registry holds it; fails if the
     *     registry refused it (the registration keeps retrying in the background after a lost session)
     */
    CompletableFuture<Announcement> update(Announcement next);

    /**
     * The registration state.
     *
     * @return the state
     */
    RegistrationState state();

    /**
     * Registers a listener for state changes (called on a registry thread).
     *
     * @param listener receives each new state
     */
    void onStateChange(Consumer<RegistrationState> listener);

    /** Releases the slot and stops the session, so App stops routing here at once. Idempotent. */
    @Override
    void close();
}
