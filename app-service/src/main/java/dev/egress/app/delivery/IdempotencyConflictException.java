package dev.egress.app.delivery;

/** The {@code Idempotency-Key} already names a delivery with another body (422 at the API). */
public final class IdempotencyConflictException extends DeliveryStoreException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates one.
     *
     * @param key        the record's key
     * @param existingId the id of the delivery holding the key
     */
    public IdempotencyConflictException(DeliveryKey key, String existingId) {
        super("Idempotency-Key of tenant %s already names delivery %s with another body"
                .formatted(key.tenantId(), existingId));
    }
}
