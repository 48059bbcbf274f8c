package dev.egress.app.delivery;

/**
 * A write by an App that does not hold the record's lease (it expired and another App claimed it, or the record
 * finished): the write changed nothing, and the caller must drop the record.
 */
public final class LeaseLostException extends DeliveryStoreException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates one.
     *
     * @param key   the record's key
     * @param owner the App that tried to write
     */
    public LeaseLostException(DeliveryKey key, String owner) {
        super("%s does not hold the lease of %s/%s".formatted(owner, key.tenantId(), key.slot()));
    }
}
