package dev.egress.app.dispatch;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The cluster-wide record of a synchronous delivery's {@code Idempotency-Key}: present only when durable delivery
 * is configured. The in-memory {@link IdempotencyStore} answers a repeat on the same App with the full answer; this
 * hook makes the key mean one delivery on every App (and after a restart), in the key space the asynchronous form
 * uses, by storing the delivery under its tenant and key before anything is sent.
 */
public interface KeyedDeliveries {

    /**
     * Records a synchronous delivery under its key before it is sent, or finds the record the key already names (a
     * delivery of either form, on any App). A new record is held by this App for at least {@code deadline}, so no
     * worker sends it while the synchronous call runs; {@link #finish} ends it.
     *
     * @param request        the validated request, its tenant resolved
     * @param envelope       the request's body, byte-exact, as it is stored
     * @param idempotencyKey the caller's key (checked)
     * @param deadline       the most the synchronous delivery may take
     * @return the record's id, and whether this call created it; an error with the {@code idempotency-key-reused}
     *     problem when the key names a record of another request
     */
    Mono<Claim> claim(DeliveryRequest request, byte[] envelope, String idempotencyKey, Duration deadline);

    /**
     * Writes the one attempt of a synchronous delivery and finishes its record: delivered for a 2xx, dead otherwise
     * (the caller has the answer and decides), so the workers never send it again. Never fails: a store failure is
     * logged, and the record's lease then expires.
     *
     * @param claim    the record {@link #claim} created
     * @param finished what the attempt came to
     * @return completes when written (or given up)
     */
    Mono<Void> finish(Claim claim, Finished finished);

    /**
     * A record under the key.
     *
     * @param id       the record's id (the {@code webhook-id} of a new one's attempt)
     * @param tenantId the tenant
     * @param key      the caller's key
     * @param status   where the record stands ({@code pending}, {@code delivering}, {@code delivered}, {@code dead})
     * @param created  true when this call stored it: the delivery is this App's to make
     */
    record Claim(String id, String tenantId, String key, String status, boolean created) {}

    /**
     * What the synchronous attempt came to.
     *
     * @param started      when it started
     * @param targetStatus the target's HTTP status, or null when it did not answer
     * @param egressIp     the IP it left from, or null
     * @param borderId     the Border that carried it, or null
     * @param reason       the problem's slug when it failed, or null
     * @param excerpt      the start of the target's answer, or null
     */
    record Finished(
            Instant started,
            @Nullable Integer targetStatus,
            @Nullable String egressIp,
            @Nullable String borderId,
            @Nullable String reason,
            @Nullable String excerpt) {}
}
