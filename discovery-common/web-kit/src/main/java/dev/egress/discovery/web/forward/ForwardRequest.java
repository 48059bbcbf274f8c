package dev.egress.discovery.web.forward;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * App's forward call to a Border ({@code POST /internal/v1/egress}): send this request from exactly
 * {@code sourceIp}. The wire contract shared by both services; the Border validates it.
 *
 * <p>The body travels as bytes ({@code bodyBase64} on the wire), never as a JSON tree or text, so the
 * target receives exactly the bytes the caller gave App. The array is not copied (it is the one slice
 * of the caller's request): neither side modifies it after building the request.
 *
 * @param deliveryId App's delivery id (logged and echoed, never used for routing)
 * @param sourceIp   the dedicated IP the call must leave from, named by its announced (public) address;
 *                   behind a NAT the Border binds the private address it pairs with it
 * @param url        the absolute http(s) target URL
 * @param method     HTTP method
 * @param headers    request headers for the target, {@code Content-Type} included (hop-by-hop ones are dropped
 *                   by the Border)
 * @param body       the request body's bytes, may be null (no body)
 */
public record ForwardRequest(
        String deliveryId,
        String sourceIp,
        String url,
        String method,
        Map<String, String> headers,
        @JsonProperty("bodyBase64") byte @Nullable [] body) {

    /** Copies the headers; null headers become empty. */
    public ForwardRequest {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    /**
     * A request with a text body, sent as its UTF-8 bytes.
     *
     * @param deliveryId App's delivery id
     * @param sourceIp   the dedicated IP
     * @param url        the target URL
     * @param method     HTTP method
     * @param headers    request headers
     * @param text       the body as text, may be null (no body)
     */
    public ForwardRequest(
            String deliveryId, String sourceIp, String url, String method, Map<String, String> headers, String text) {
        this(deliveryId, sourceIp, url, method, headers, text == null ? null : text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads the wire form. An App older than this Border sends the body as UTF-8 text in {@code body}; it is
     * still accepted, so Borders can be upgraded before Apps. Both at once is refused.
     *
     * @param deliveryId App's delivery id
     * @param sourceIp   the dedicated IP
     * @param url        the target URL
     * @param method     HTTP method
     * @param headers    request headers
     * @param body       the body's bytes (base64 in JSON)
     * @param legacyText the body as text, from an older App
     * @return the request
     * @throws IllegalArgumentException if both body forms are given
     */
    @JsonCreator
    static ForwardRequest fromWire(
            @JsonProperty("deliveryId") String deliveryId,
            @JsonProperty("sourceIp") String sourceIp,
            @JsonProperty("url") String url,
            @JsonProperty("method") String method,
            @JsonProperty("headers") Map<String, String> headers,
            @JsonProperty("bodyBase64") byte[] body,
            @JsonProperty("body") String legacyText) {
        if (body != null && legacyText != null) {
            throw new IllegalArgumentException("bodyBase64 and body: give one (expected: bodyBase64 only)");
        }
        return body != null || legacyText == null
                ? new ForwardRequest(deliveryId, sourceIp, url, method, headers, body)
                : new ForwardRequest(deliveryId, sourceIp, url, method, headers, legacyText);
    }
}
