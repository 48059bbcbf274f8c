package dev.egress.app.routing;

/** The claims table could not be read or written ({@link ClaimRecords}); the message says why. */
public final class ClaimStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed
     * @param cause   the store's failure
     */
    public ClaimStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
