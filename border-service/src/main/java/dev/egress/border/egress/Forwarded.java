package dev.egress.border.egress;

import dev.egress.discovery.web.forward.ForwardFrame;
import dev.egress.discovery.web.forward.ForwardResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * A forward's answer before it is written in the form App asked for: the JSON {@link ForwardResponse} (the
 * target's body as text inside the JSON) or the raw {@link ForwardFrame} (the body's bytes after a small head).
 *
 * @param deliveryId echoed from the request
 * @param sourceIp   the local address the call left from
 * @param borderId   this Border
 * @param status     the target's HTTP status
 * @param headers    the target's response headers (first value per name)
 * @param body          the target's body as kept under the cap (not copied: nothing modifies it)
 * @param bodyTruncated whether the body was cut at the cap
 * @param latencyMs     time from sending the request to the end of the response, in ms
 */
record Forwarded(
        String deliveryId,
        String sourceIp,
        String borderId,
        int status,
        Map<String, String> headers,
        byte[] body,
        boolean bodyTruncated,
        long latencyMs) {

    /** The JSON form's answer: the kept bytes as UTF-8 (a multi-byte character cut by the cap becomes U+FFFD). */
    ForwardResponse json() {
        return response(new String(body, StandardCharsets.UTF_8));
    }

    /**
     * The raw form's answer: the head, then the kept bytes unchanged.
     *
     * @param json the mapper
     * @return the whole frame, the body not copied again
     */
    ByteBuf frame(JsonMapper json) {
        return Unpooled.wrappedBuffer(ForwardFrame.responseHead(json, response("")), body);
    }

    private ForwardResponse response(String text) {
        return new ForwardResponse(deliveryId, sourceIp, borderId, status, headers, text, bodyTruncated, latencyMs);
    }
}
