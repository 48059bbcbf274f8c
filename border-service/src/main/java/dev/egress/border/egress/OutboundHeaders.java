package dev.egress.border.egress;

import dev.egress.border.InvalidRequestException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

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
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    private OutboundHeaders() {}

    /**
     * Validates and filters App's headers.
     *
     * @param headers the headers App asked for
     * @return the headers to send (original names, insertion order)
     * @throws InvalidRequestException if a name is not an HTTP token or a value contains CR, LF or NUL
     */
    static Map<String, String> filter(Map<String, String> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        Set<String> named = connectionNamed(headers);
        for (Map.Entry<String, String> e : headers.entrySet()) {
            String name = e.getKey();
            String value = e.getValue() == null ? "" : e.getValue();
            if (name == null || !TOKEN.matcher(name).matches()) {
                throw new InvalidRequestException("headers: name '%s' (expected: an HTTP token)".formatted(name));
            }
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
                throw new InvalidRequestException("headers: value of '%s' contains CR, LF or NUL".formatted(name));
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
