package dev.egress.discovery.web.forward;

import java.util.Map;

/**
 * The Border's answer when the target answered (any HTTP status, 3xx included: redirects are never
 * followed).
 *
 * @param deliveryId    echoed from the request
 * @param sourceIp      the local address the call actually left from: the requested IP, or behind a NAT
 *                      the bind address announced with it
 * @param borderId      the Border that sent it
 * @param status        the target's HTTP status
 * @param headers       the target's response headers (first value per name)
 * @param body          the target's body as UTF-8 text, capped
 * @param bodyTruncated whether the body was cut at the cap
 * @param latencyMs     time from sending the request to the end of the response, in ms
 */
public record ForwardResponse(
        String deliveryId,
        String sourceIp,
        String borderId,
        int status,
        Map<String, String> headers,
        String body,
        boolean bodyTruncated,
        long latencyMs) {

    /** Copies the headers; null headers become empty. */
    public ForwardResponse {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }
}
