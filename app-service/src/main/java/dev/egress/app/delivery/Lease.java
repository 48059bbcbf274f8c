package dev.egress.app.delivery;

import java.time.Instant;
import java.util.Objects;

/**
 * An App's claim on a delivery: only the holder may record its attempts, until another App claims it after
 * {@code until}.
 *
 * @param owner the App holding it
 * @param until when it expires and the record becomes claimable again
 */
public record Lease(String owner, Instant until) {

    /** Validates. */
    public Lease {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(until, "until");
        if (owner.isBlank()) {
            throw new IllegalArgumentException("owner: '' (expected: not blank)");
        }
    }
}
