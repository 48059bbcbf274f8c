package dev.egress.app.delivery;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A stored durable delivery as one read saw it.
 *
 * @param key         its primary key
 * @param id          its id ({@code webhook-id} on every attempt)
 * @param fingerprint the accepted body's fingerprint
 * @param request     the accepted envelope, byte-exact
 * @param status      where it stands
 * @param bucket      the bucket whose workers find it
 * @param dueAt       when it is next due (for a leased record: when the lease ends), null when finished
 * @param lease       the App holding it, or null
 * @param series      the attempt series, from 1; a retry of a finished record starts the next one
 * @param attempts    attempts made in this series
 * @param createdAt   when it was accepted
 * @param updatedAt   its last change
 */
public record DeliveryRecord(
        DeliveryKey key,
        String id,
        String fingerprint,
        byte[] request,
        DeliveryStatus status,
        int bucket,
        @Nullable Instant dueAt,
        @Nullable Lease lease,
        int series,
        int attempts,
        Instant createdAt,
        Instant updatedAt) {

    /** Validates and copies the request. */
    public DeliveryRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(status, "status");
        request = request.clone();
    }

    @Override
    public byte[] request() {
        return request.clone();
    }

    /**
     * The tenant.
     *
     * @return the key's tenant
     */
    public String tenantId() {
        return key.tenantId();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeliveryRecord r
                && key.equals(r.key)
                && id.equals(r.id)
                && fingerprint.equals(r.fingerprint)
                && Arrays.equals(request, r.request)
                && status == r.status
                && bucket == r.bucket
                && Objects.equals(dueAt, r.dueAt)
                && Objects.equals(lease, r.lease)
                && series == r.series
                && attempts == r.attempts
                && createdAt.equals(r.createdAt)
                && updatedAt.equals(r.updatedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, id, status, series, attempts, dueAt, lease, updatedAt);
    }

    @Override
    public String toString() {
        return "DeliveryRecord[id=%s, %s, status=%s, series=%s, attempts=%s, dueAt=%s, lease=%s]"
                .formatted(id, key.tenantId(), status, series, attempts, dueAt, lease);
    }
}
