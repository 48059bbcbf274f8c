package dev.egress.border.trust;

import java.util.Optional;

/**
 * Whether this Border runs on the trust chain ({@code egress.trust.*} loaded) or in
 * {@code insecure-local} mode (plaintext, unsigned). One bean, so that nothing guesses from nulls.
 *
 * @param material the loaded trust material; empty in {@code insecure-local} mode
 */
public record TrustMode(Optional<BorderTrust> material) implements AutoCloseable {

    /** Stops watching the trust files (the context is closing). */
    @Override
    public void close() {
        material.ifPresent(m -> {
            m.identity().close();
            m.appCa().close();
        });
    }

    static TrustMode insecure() {
        return new TrustMode(Optional.empty());
    }

    static TrustMode secure(BorderTrust material) {
        return new TrustMode(Optional.of(material));
    }
}
