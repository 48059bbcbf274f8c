package dev.egress.discovery.registry.ydb;

/**
 * The registry participant that uses the session a {@link SessionKeeper} keeps: App's watcher reads on it, a
 * Border's publisher holds its slot on it. Every call runs on the participant's loop.
 */
interface SessionOwner {

    /** What went wrong, for the owner's metrics and reported state. */
    enum Failure {
        /** Opening a session or a request on it failed for good; a new session follows after a backoff. */
        FAILED,
        /** The server ended the session; a new one follows after a backoff. */
        LOST,
        /** The session is up but the semaphore could not be found or created; retried after a backoff. */
        SEMAPHORE
    }

    /**
     * The session is connected and the semaphore exists: read or publish on it. Called for each new session
     * and again after the semaphore was found again on the same one.
     *
     * @param up the phase, with the session and the retiring predecessor if any
     */
    void ready(SessionPhase.Up up);

    /** The session in use was replaced, lost, failed or closed: what is in flight on it no longer counts. */
    void dropped();

    /**
     * Something failed; the keeper recovers on its own, this is for metrics and the reported state.
     *
     * @param failure what failed
     */
    void failed(Failure failure);

    /**
     * The session's link state changed (the watcher exports it as a gauge).
     *
     * @param state the new state
     */
    default void link(LinkState state) {}
}
