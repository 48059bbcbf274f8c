package dev.egress.app.delivery;

import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A delivery as accepted, before it is stored: what the store needs to keep it and to recognise a repeat.
 *
 * @param id             the id it gets when it is new (a repeat returns the first record's id)
 * @param tenantId       the tenant
 * @param idempotencyKey the caller's {@code Idempotency-Key}, or null
 * @param fingerprint    the body's fingerprint: the same key with another fingerprint is a conflict
 * @param request        the accepted envelope, byte-exact, opaque to the store
 * @param bucket         the bucket whose workers find it when it is due
 */
public record NewDelivery(
        String id, String tenantId, @Nullable String idempotencyKey, String fingerprint, byte[] request, int bucket) {

    /** Validates and copies the request. */
    public NewDelivery {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(fingerprint, "fingerprint");
        request = request.clone();
        if (bucket < 0) {
            throw new IllegalArgumentException("bucket: %s (expected: >= 0)".formatted(bucket));
        }
    }

    /**
     * The record's primary key.
     *
     * @return tenant and slot
     */
    public DeliveryKey key() {
        return DeliveryKey.of(tenantId, idempotencyKey, id);
    }

    @Override
    public byte[] request() {
        return request.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NewDelivery d
                && id.equals(d.id)
                && tenantId.equals(d.tenantId)
                && Objects.equals(idempotencyKey, d.idempotencyKey)
                && fingerprint.equals(d.fingerprint)
                && Arrays.equals(request, d.request)
                && bucket == d.bucket;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, tenantId, idempotencyKey, fingerprint, Arrays.hashCode(request), bucket);
    }

    @Override
    public String toString() {
        return "NewDelivery[id=%s, tenantId=%s, bucket=%s, %s bytes]".formatted(id, tenantId, bucket, request.length);
    }
}
