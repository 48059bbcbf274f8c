package dev.egress.app.delivery;

/** A retry of a delivery that is not finished (pending or delivering): it is still being tried. */
public final class NotRetryableException extends DeliveryStoreException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates one.
     *
     * @param id     the delivery
     * @param status where it stands
     */
    public NotRetryableException(String id, DeliveryStatus status) {
        super("delivery %s is %s (expected: delivered or dead)".formatted(id, status.wireName()));
    }
}
