package dev.egress.discovery.registry;

import org.jspecify.annotations.Nullable;

/**
 * Text from outside (an announcement from the shared registry, a target's malformed answer) made safe
 * for a log line: CR, LF and other control characters are shown escaped, so such text can never start
 * a forged log line, and it is cut to a bounded length so it cannot flood the log either.
 */
public final class LogText {

    /** The longest text kept; the rest is replaced by a count. */
    public static final int MAX_CHARS = 512;

    private LogText() {}

    /**
     * Escapes control characters ({@code \r}, {@code \n}, {@code \t}, others as {@code \\uXXXX}) and
     * truncates to {@link #MAX_CHARS}.
     *
     * @param text any text, or null
     * @return a single-line, bounded rendering ({@code "null"} for null)
     */
    public static String escape(@Nullable String text) {
        if (text == null) {
            return "null";
        }
        int limit = Math.min(text.length(), MAX_CHARS);
        StringBuilder out = new StringBuilder(limit + 16);
        for (int i = 0; i < limit; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\r' -> out.append("\\r");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || c == '\u0085') {
                        out.append("\\u%04x".formatted((int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        if (text.length() > limit) {
            out.append("...(").append(text.length() - limit).append(" more chars)");
        }
        return out.toString();
    }
}
