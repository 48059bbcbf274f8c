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
record DeliveryResponse(String id, String tenantId, String egressIp, String borderId, TargetResponse response,
                        List<Attempt> attempts) {

    /**
     * The target's answer.
     *
     * @param status        HTTP status
     * @param latencyMs     time the target took, as the Border measured it
     * @param headers       response headers (first value per name)
     * @param body          response body as text, absent when empty
     * @param bodyTruncated present and true when the Border cut the body at its cap
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TargetResponse(int status, long latencyMs, Map<String, String> headers, String body, Boolean bodyTruncated) {
    }

    /**
     * One Border call.
     *
     * @param borderId  the Border
     * @param egressIp  the source IP asked for
     * @param outcome   {@code delivered}, {@code border-unreachable}, {@code breaker-open}, a Border problem slug, ...
     * @param latencyMs time of the call
     */
    record Attempt(String borderId, String egressIp, String outcome, long latencyMs) {
    }
}
