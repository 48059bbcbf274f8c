package dev.egress.discovery.registry;

/** Where a Border's registration stands; readiness is UP only in {@link #REGISTERED}. */
public enum RegistrationState {
    /** Opening a session or acquiring the slot (also after the session was lost). */
    REGISTERING,
    /** The slot is held and carries the current announcement. */
    REGISTERED,
    /** The last attempt failed; retrying with backoff. */
    FAILED,
    /** Closed by {@link Registration#close()}: the slot was released. */
    CLOSED
}
