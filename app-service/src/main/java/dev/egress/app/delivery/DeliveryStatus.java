package dev.egress.app.delivery;

import java.util.Locale;

/** Where a durable delivery stands; the wire and stored name is the lower-case constant name. */
public enum DeliveryStatus {
    /** Waiting for its due time. */
    PENDING,
    /** Leased to an App that is attempting it. */
    DELIVERING,
    /** The target took it. */
    DELIVERED,
    /** Given up. */
    DEAD;

    /**
     * The stored name.
     *
     * @return the lower-case name
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a stored name.
     *
     * @param wire the lower-case name
     * @return the status
     */
    public static DeliveryStatus ofWire(String wire) {
        return valueOf(wire.toUpperCase(Locale.ROOT));
    }

    /**
     * Is this an end state (kept until retention, or sent again by an operator)?
     *
     * @return true for delivered and dead
     */
    public boolean finished() {
        return this == DELIVERED || this == DEAD;
    }
}
