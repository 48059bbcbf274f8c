package dev.egress.discovery.forward;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * App's forward call to a Border ({@code POST /internal/v1/egress}): send this request from exactly
 * {@code sourceIp}. The wire contract shared by both services; the Border validates it.
 *
 * @param deliveryId App's delivery id (logged and echoed, never used for routing)
 * @param sourceIp   the dedicated IP the call must leave from, named by its announced (public) address;
 *                   behind a NAT the Border binds the private address it pairs with it
 * @param url        the absolute http(s) target URL
 * @param method     HTTP method
 * @param headers    request headers for the target (hop-by-hop ones are dropped by the Border)
 * @param body       request body as UTF-8 text, may be null
 */
public record ForwardRequest(
        String deliveryId,
        String sourceIp,
        String url,
        String method,
        Map<String, String> headers,
        @Nullable String body) {

    /** Copies the headers; null headers become empty. */
    public ForwardRequest {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }
}
