package dev.egress.discovery.web.auth;

import org.jspecify.annotations.Nullable;

/**
 * Refuses request paths that have more than one spelling. Both services authorise by the first path
 * segments (which door a request knocks on) while the web framework routes on the decoded segments
 * with {@code ;} parameters stripped; when the two readings can differ, a token for one door opens
 * another ({@code /internal;x/v1/egress} and {@code /%69nternal/v1/egress} routed to the forward
 * endpoint but were authorised as operator paths). A path that passes this check has exactly one
 * meaning: what the filter reads is what the router matches.
 *
 * <p>Refused, whatever the token: a {@code ;} anywhere (matrix parameters), an empty segment
 * ({@code //}; a single trailing slash is allowed, it is a different route, not a different spelling),
 * a {@code .} or {@code ..} segment, a backslash, characters outside visible ASCII, a malformed
 * {@code %} escape, and an escape of a character that has a plain spelling or structure
 * (unreserved letters, digits, {@code -._~}, and {@code / \ ; %}) or a control character. Escapes of
 * other characters (for example {@code %3A} for an IPv6 literal in {@code /ops/v1/ips/{ip}}) stay
 * allowed: they cannot spell a door's name.
 */
public final class CanonicalPath {

    private CanonicalPath() {}

    /**
     * Why a raw path is not canonical.
     *
     * @param rawPath the path as received, still percent-encoded, without the query
     * @return a short reason for the 400 problem, or null if the path is canonical
     */
    public static @Nullable String problem(String rawPath) {
        if (rawPath == null || rawPath.isEmpty() || rawPath.charAt(0) != '/') {
            return "path must start with '/'";
        }
        int segmentStart = 1;
        for (int i = 1; i <= rawPath.length(); i++) {
            if (i == rawPath.length() || rawPath.charAt(i) == '/') {
                String segment = rawPath.substring(segmentStart, i);
                boolean last = i == rawPath.length();
                if (segment.isEmpty() && !last) {
                    return "empty path segment ('//')";
                }
                if (segment.equals(".") || segment.equals("..")) {
                    return "dot segment ('/./' or '/../')";
                }
                segmentStart = i + 1;
                continue;
            }
            char c = rawPath.charAt(i);
            if (c == ';') {
                return "path parameter (';')";
            }
            if (c == '\\' || c <= 0x20 || c >= 0x7f) {
                return "character outside visible ASCII or a backslash";
            }
            if (c == '%') {
                if (i + 2 >= rawPath.length() || hex(rawPath.charAt(i + 1)) < 0 || hex(rawPath.charAt(i + 2)) < 0) {
                    return "malformed percent escape";
                }
                int decoded = hex(rawPath.charAt(i + 1)) * 16 + hex(rawPath.charAt(i + 2));
                if (mustNotBeEscaped(decoded)) {
                    return "percent escape of a character with a plain spelling or a path delimiter (%"
                            + rawPath.substring(i + 1, i + 3) + ")";
                }
                i += 2;
            }
        }
        return null;
    }

    private static boolean mustNotBeEscaped(int b) {
        return (b >= 'a' && b <= 'z')
                || (b >= 'A' && b <= 'Z')
                || (b >= '0' && b <= '9')
                || b == '-'
                || b == '.'
                || b == '_'
                || b == '~'
                || b == '/'
                || b == '\\'
                || b == ';'
                || b == '%'
                || b < 0x20
                || b == 0x7f;
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
