package dev.egress.discovery.registry;

/**
 * The registry refused or could not complete an operation. Carries the registry's reason in our own
 * words, so nothing above the adapter sees SDK types.
 */
public class RegistryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was refused and why
     */
    public RegistryException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a cause.
     *
     * @param message what failed
     * @param cause   the underlying failure
     */
    public RegistryException(String message, Throwable cause) {
        super(message, cause);
    }
}
