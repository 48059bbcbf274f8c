package dev.egress.app.delivery;

import java.time.Duration;
import java.util.Objects;

/**
 * How long finished deliveries and their attempts are kept before the table's TTL removes them.
 *
 * @param delivered after delivery (default 7 days)
 * @param dead      after giving up (default 30 days)
 */
public record Retention(Duration delivered, Duration dead) {

    /** The defaults. */
    public static final Retention DEFAULT = new Retention(Duration.ofDays(7), Duration.ofDays(30));

    /** Validates. */
    public Retention {
        Objects.requireNonNull(delivered, "delivered");
        Objects.requireNonNull(dead, "dead");
        if (delivered.isNegative() || dead.isNegative()) {
            throw new IllegalArgumentException("retention: %s, %s (expected: >= 0)".formatted(delivered, dead));
        }
    }

    /**
     * The retention of a finished status.
     *
     * @param status delivered or dead
     * @return how long it is kept
     */
    public Duration of(DeliveryStatus status) {
        return status == DeliveryStatus.DEAD ? dead : delivered;
    }
}
