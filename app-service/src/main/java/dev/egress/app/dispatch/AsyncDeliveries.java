package dev.egress.app.dispatch;

import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import reactor.core.publisher.Mono;

/**
 * The asynchronous form of {@code POST /v1/deliveries} ({@code Prefer: respond-async}, RFC 7240): present only
 * when durable delivery is configured; without it the preference is ignored and the delivery is answered
 * synchronously. The controller has read, capped and validated the request and checked the token's tenant before
 * it calls this, so an implementation only stores and answers.
 */
public interface AsyncDeliveries {

    /**
     * Accepts a validated delivery for durable delivery.
     *
     * @param request        the validated request
     * @param envelope       the request's body, byte-exact, as it is stored
     * @param idempotencyKey the caller's {@code Idempotency-Key} (checked), or null
     * @return the {@code 202 Accepted} answer
     */
    Mono<ResponseEntity<Object>> accept(DeliveryRequest request, byte[] envelope, @Nullable String idempotencyKey);
}
