package dev.egress.app.dispatch;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * The 200 answer of {@code POST /v1/deliveries}: the target answered (any HTTP status).
 *
 * @param id       the delivery id
 * @param tenantId the tenant
 * @param egressIp the IP the webhook left from
 * @param borderId the Border that sent it
 * @param response the target's answer
 * @param attempts every Border call made, in order
 */
record DeliveryResponse(
        String id, String tenantId, String egressIp, String borderId, TargetResponse response, List<Attempt> attempts) {

    /**
     * The same answer with another target response (the idempotency store keeps a cut copy).
     *
     * @param next the target response
     * @return a copy
     */
    DeliveryResponse withResponse(TargetResponse next) {
        return new DeliveryResponse(id, tenantId, egressIp, borderId, next, attempts);
    }

    /**
     * The target's answer.
     *
     * @param status        HTTP status
     * @param latencyMs     time the target took, as the Border measured it
     * @param headers       response headers (first value per name)
     * @param body          response body as text, absent when empty
     * @param bodyTruncated present and true when the body was cut: by the Border at its cap, or by App's
     *                      idempotency store when it replays an answer
     * @param bodySha256    present when App's idempotency store cut the body: hex SHA-256 of the whole body
     *                      as App first received it, so a client can check the copy it may have kept
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TargetResponse(
            int status,
            long latencyMs,
            Map<String, String> headers,
            String body,
            Boolean bodyTruncated,
            String bodySha256) {}

    /**
     * One Border call.
     *
     * @param borderId  the Border
     * @param egressIp  the source IP asked for
     * @param outcome   {@code delivered}, {@code border-unreachable}, {@code breaker-open}, a Border problem slug, ...
     * @param latencyMs time of the call
     */
    record Attempt(String borderId, String egressIp, String outcome, long latencyMs) {}
}
