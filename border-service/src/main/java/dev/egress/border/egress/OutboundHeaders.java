package dev.egress.border.egress;

import dev.egress.border.InvalidRequestException;
import dev.egress.discovery.registry.LogText;
import dev.egress.discovery.web.forward.HeaderFields;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which of App's headers go to the target. Hop-by-hop headers belong to the connection App → Border,
 * not to Border → target; {@code Host} and {@code Content-Length} are derived from the URL and body;
 * forwarding headers would leak internal topology.
 */
final class OutboundHeaders {

    private static final Set<String> DROPPED = Set.of(
            "host",
            "connection",
            "keep-alive",
            "transfer-encoding",
            "te",
            "trailer",
            "trailers",
            "upgrade",
            "content-length",
            "expect",
            "via",
            "forwarded",
            "proxy-connection",
            "proxy-authorization",
            "proxy-authenticate",
            "http2-settings");

    private OutboundHeaders() {}

    /**
     * Validates and filters App's headers.
     *
     * @param headers the headers App asked for
     * @return the headers to send (original names, insertion order)
     * @throws InvalidRequestException if a name is not an HTTP token or a value breaks {@link HeaderFields}' rule
     */
    static Map<String, String> filter(Map<String, String> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        Set<String> named = connectionNamed(headers);
        for (Map.Entry<String, String> e : headers.entrySet()) {
            String name = e.getKey();
            String value = e.getValue() == null ? "" : e.getValue();
            if (!HeaderFields.validName(name)) {
                throw new InvalidRequestException(
                        "headers: name '%s' (expected: an HTTP token)".formatted(LogText.escape(String.valueOf(name))));
            }
            // Checked here, before admission: Netty would refuse the value only when the call is built.
            int invalid = HeaderFields.invalidValueIndex(value);
            if (invalid >= 0) {
                throw new InvalidRequestException(
                        "headers.%s: %s".formatted(name, HeaderFields.describe(value, invalid)));
            }
            String lower = name.toLowerCase(Locale.ROOT);
            if (DROPPED.contains(lower)
                    || lower.startsWith("proxy-")
                    || lower.startsWith("x-forwarded-")
                    || named.contains(lower)) {
                continue;
            }
            out.put(name, value);
        }
        return out;
    }

    /** Headers listed in {@code Connection} are hop-by-hop too (RFC 9110 §7.6.1). */
    private static Set<String> connectionNamed(Map<String, String> headers) {
        for (Map.Entry<String, String> e : headers.entrySet()) {
            if (e.getKey() != null && e.getKey().equalsIgnoreCase("connection") && e.getValue() != null) {
                Set<String> names = new HashSet<>();
                for (String n : e.getValue().split(",")) {
                    names.add(n.strip().toLowerCase(Locale.ROOT));
                }
                return names;
            }
        }
        return Set.of();
    }
}
