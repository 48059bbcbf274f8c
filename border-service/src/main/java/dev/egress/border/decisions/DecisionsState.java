package dev.egress.border.decisions;

import java.util.Objects;

/**
 * Where this Border's operator decisions stand, for readiness detail and logs.
 *
 * @param kind   the state
 * @param reason why a start failed closed; empty otherwise
 */
public record DecisionsState(Kind kind, String reason) {

    /** The states. */
    public enum Kind {
        /** Nothing was ever stored: every IP started with {@code egress.border.initial-status}. */
        NOTHING_STORED,
        /** The stored decisions were read and applied at startup. */
        RESTORED,
        /** The stored decisions could not be read: every IP started {@code DISABLED}, until an operator sets it. */
        FAIL_CLOSED,
        /** An operator changed an IP since startup, and the registry holds the resulting record. */
        STORED
    }

    /** Validates. */
    public DecisionsState {
        Objects.requireNonNull(kind, "kind");
        reason = reason == null ? "" : reason;
        if (kind == Kind.FAIL_CLOSED && reason.isBlank()) {
            throw new IllegalArgumentException("reason: blank (expected: why the decisions could not be read)");
        }
    }

    /**
     * A state without a reason.
     *
     * @param kind the state (not {@link Kind#FAIL_CLOSED})
     * @return the state
     */
    public static DecisionsState of(Kind kind) {
        return new DecisionsState(kind, "");
    }

    /**
     * A fail-closed start.
     *
     * @param reason why the decisions could not be read
     * @return the state
     */
    public static DecisionsState failClosed(String reason) {
        return new DecisionsState(Kind.FAIL_CLOSED, reason);
    }
}
