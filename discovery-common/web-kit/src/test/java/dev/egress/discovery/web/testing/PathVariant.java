package dev.egress.discovery.web.testing;

import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Spellings of one request path that a raw-prefix check and a router may read differently. Both
 * services' authentication tests run every door through every variant and every token.
 */
public enum PathVariant {
    /** The path as routed. */
    CANONICAL(false, p -> p),
    /** A matrix parameter on the first segment: {@code /internal;x/v1/egress}. */
    PARAMETER_ON_FIRST_SEGMENT(true, p -> p.replaceFirst("^(/[^/]+)", "$1;x")),
    /** A matrix parameter on the last segment. */
    PARAMETER_ON_LAST_SEGMENT(true, p -> p + ";x"),
    /** The first letter escaped: {@code /%69nternal/v1/egress}. */
    ESCAPED_LETTER(true, p -> "/%" + Integer.toHexString(p.charAt(1)) + p.substring(2)),
    /** A separator escaped: {@code /internal%2Fv1/egress}. */
    ESCAPED_SLASH(true, p -> p.replaceFirst("^(/[^/]+)/", "$1%2F")),
    /** A leading empty segment: {@code //internal/v1/egress}. */
    DOUBLE_SLASH_LEADING(true, p -> "/" + p),
    /** An inner empty segment: {@code /internal//v1/egress}. */
    DOUBLE_SLASH_INNER(true, p -> p.replaceFirst("^(/[^/]+)/", "$1//")),
    /** A dot segment: {@code /./internal/v1/egress}. */
    DOT_SEGMENT(true, p -> "/." + p),
    /** A parent segment: {@code /x/../internal/v1/egress}. */
    DOT_DOT_SEGMENT(true, p -> "/x/.." + p),
    /** A trailing slash: another route, not another spelling. */
    TRAILING_SLASH(false, p -> p + "/"),
    /** All upper case. */
    UPPER_CASE(false, p -> p.toUpperCase(Locale.ROOT)),
    /** The first letter in upper case: {@code /Internal/v1/egress}. */
    CAPITALISED(false, p -> "/" + Character.toUpperCase(p.charAt(1)) + p.substring(2));

    private final boolean refused;
    private final UnaryOperator<String> spelling;

    PathVariant(boolean refused, UnaryOperator<String> spelling) {
        this.refused = refused;
        this.spelling = spelling;
    }

    /**
     * This variant of a path.
     *
     * @param canonicalPath a path starting with {@code /} and a letter
     * @return the raw (encoded) path to send
     */
    public String of(String canonicalPath) {
        return spelling.apply(canonicalPath);
    }

    /**
     * Whether the services refuse this spelling with 400 before looking at the token.
     *
     * @return true for spellings with more than one meaning
     */
    public boolean refused() {
        return refused;
    }
}
