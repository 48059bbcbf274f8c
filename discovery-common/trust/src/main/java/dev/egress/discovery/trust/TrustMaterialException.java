package dev.egress.discovery.trust;

/**
 * Trust material (a certificate, a key, a CA bundle) is missing, unreadable or inconsistent. The
 * message names the property or file and the rule; it never contains key material.
 */
public final class TrustMaterialException extends RuntimeException {

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the property or file
     */
    public TrustMaterialException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a cause.
     *
     * @param message what is wrong
     * @param cause   the underlying failure
     */
    public TrustMaterialException(String message, Throwable cause) {
        super(message, cause);
    }
}
