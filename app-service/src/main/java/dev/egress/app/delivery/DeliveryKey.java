package dev.egress.app.delivery;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The primary key of a delivery record: its tenant and its slot, which is the caller's {@code Idempotency-Key}
 * when one was given (so one key is one record across every App) and otherwise derived from the id. The two
 * forms carry different prefixes, so a caller's key can never take the slot of an unkeyed delivery.
 *
 * @param tenantId the tenant
 * @param slot     {@code k:<Idempotency-Key>} or {@code id:<id>}
 */
public record DeliveryKey(String tenantId, String slot) {

    /** Validates. */
    public DeliveryKey {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(slot, "slot");
    }

    /**
     * The key of a new delivery.
     *
     * @param tenantId       the tenant
     * @param idempotencyKey the caller's key, or null
     * @param id             the id the delivery gets when it is new
     * @return the key
     */
    public static DeliveryKey of(String tenantId, @Nullable String idempotencyKey, String id) {
        return new DeliveryKey(tenantId, idempotencyKey == null ? "id:" + id : "k:" + idempotencyKey);
    }
}
