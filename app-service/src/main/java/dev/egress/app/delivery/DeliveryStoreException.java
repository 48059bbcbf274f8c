package dev.egress.app.delivery;

/**
 * The delivery store could not do what was asked: the base of its refusals, and on its own the store being
 * unreachable or failing (retry later; nothing is known to have changed).
 */
public class DeliveryStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates one.
     *
     * @param message what failed
     */
    public DeliveryStoreException(String message) {
        super(message);
    }
}
