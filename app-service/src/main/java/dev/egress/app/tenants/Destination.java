package dev.egress.app.tenants;

import dev.egress.discovery.registry.EgressIp;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a tenant's {@code destinations}: a host the tenant claims, so that a proxy request for it
 * with an empty user is sent as that tenant. Held normalised, so that two spellings of one destination
 * are one key: names in lower case without a trailing dot, IP literals in {@link EgressIp}'s canonical
 * form.
 *
 * <p>Forms: an exact host name ({@code api.example.com}), a wildcard ({@code *.example.com}: any name with
 * at least one more label, never the bare suffix), an IPv4 or IPv6 literal ({@code 192.0.2.7},
 * {@code 2001:db8::7}); each optionally with {@code :port} (an IPv6 literal with a port is written
 * {@code [2001:db8::7]:443}). Names must be ASCII: an internationalised name is written in its
 * {@code xn--} form, because the two IDNA standards map some names differently and a claim must mean
 * exactly one name.
 *
 * @param host     the name, the wildcard's suffix (without {@code *.}), or the canonical IP literal
 * @param wildcard whether {@code host} is a suffix that claims every name below it
 * @param port     the claimed port, or 0 for every port
 */
public record Destination(String host, boolean wildcard, int port) {

    private static final int MAX_PORT = 65_535;
    private static final int MAX_NAME = 253;
    private static final int MAX_LABEL = 63;

    /** Checks the port; the host is normalised by {@link #parse(String)}. */
    public Destination {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > MAX_PORT) {
            throw new IllegalArgumentException("port: %d (expected: 1..65535, or 0 for any)".formatted(port));
        }
    }

    /**
     * Parses one entry as the tenants file writes it.
     *
     * @param text the entry, e.g. {@code *.example.com:443}
     * @return the normalised destination
     * @throws IllegalArgumentException naming the rule the entry breaks
     */
    public static Destination parse(String text) {
        if (text.startsWith("[")) {
            // Index comparisons below are == / != -1 on purpose: index 0 is '[' here, so "< 0" and "<= 0" would
            // mean the same and leave mutants no test can tell apart.
            int close = text.indexOf(']');
            String inside = close == -1 ? "" : text.substring(1, close);
            if (!inside.contains(":")) {
                throw new IllegalArgumentException(
                        "'%s': expected an IPv6 literal inside [ ] (e.g. [2001:db8::7]:443)".formatted(text));
            }
            String rest = text.substring(close + 1);
            if (!rest.isEmpty() && !rest.startsWith(":")) {
                throw new IllegalArgumentException("'%s': expected ':port' after ']'".formatted(text));
            }
            String literal = ipLiteral(inside, text);
            return new Destination(literal, false, rest.isEmpty() ? 0 : port(rest.substring(1), text));
        }
        int colon = text.indexOf(':');
        if (colon != text.lastIndexOf(':')) {
            // Two colons or more: an IPv6 literal, never host:port (write [addr]:port for that).
            return new Destination(ipLiteral(text, text), false, 0);
        }
        String hostPart = colon == -1 ? text : text.substring(0, colon);
        int port = colon == -1 ? 0 : port(text.substring(colon + 1), text);
        if (hostPart.startsWith("*.")) {
            return new Destination(name(hostPart.substring(2), text), true, port);
        }
        String ip = ipv4(hostPart);
        return new Destination(ip != null ? ip : name(hostPart, text), false, port);
    }

    /**
     * The key a request's host is looked up by: the same normalisation as the file's, without the
     * checks (a host that is not a valid name simply matches nothing).
     *
     * @param host the host as the request names it, IPv6 with or without brackets
     * @return the normalised host, or null for a host no entry can claim (non-ASCII)
     */
    static @Nullable String lookupKey(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.indexOf(':') >= 0) {
            try {
                return EgressIp.of(bare).value();
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        for (int i = 0; i < bare.length(); i++) {
            if (bare.charAt(i) > 0x7f) {
                // Lower-casing could turn some non-ASCII letters (the Kelvin sign) into ASCII ones.
                return null;
            }
        }
        return stripDot(bare).toLowerCase(Locale.ROOT);
    }

    /**
     * Whether no wildcard can claim {@code key}: an IPv6 literal, or a key whose last label is all digits (an
     * IPv4 literal, or a name the file refuses as a wildcard suffix). Decided from the characters alone, so
     * that a lookup never parses (or throws) on the request path.
     *
     * @param key a key from {@link #lookupKey(String)}
     * @return true if only exact entries can claim it
     */
    static boolean exactOnly(String key) {
        if (key.indexOf(':') != -1) {
            return true;
        }
        for (int i = key.lastIndexOf('.') + 1; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static String ipLiteral(String literal, String entry) {
        try {
            return EgressIp.of(literal).value();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'%s': %s".formatted(entry, e.getMessage()), e);
        }
    }

    private static @Nullable String ipv4(String text) {
        try {
            EgressIp ip = EgressIp.of(text);
            return ip.isIpv6() ? null : ip.value();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static int port(String text, String entry) {
        int port = 0;
        boolean digits = !text.isEmpty() && text.length() <= 5 && text.charAt(0) != '0';
        for (int i = 0; digits && i < text.length(); i++) {
            char c = text.charAt(i);
            digits = c >= '0' && c <= '9';
            port = port * 10 + (c - '0');
        }
        if (!digits || port > MAX_PORT) {
            throw new IllegalArgumentException("'%s': port '%s' (expected: 1..65535)".formatted(entry, text));
        }
        return port;
    }

    /** A host name, checked label by label and lower-cased. */
    private static String name(String text, String entry) {
        String name = stripDot(text);
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) > 0x7f) {
                throw new IllegalArgumentException(
                        "'%s': not ASCII (expected: an internationalised name in its xn-- form)".formatted(entry));
            }
        }
        name = name.toLowerCase(Locale.ROOT);
        if (name.isEmpty() || name.length() > MAX_NAME) {
            throw new IllegalArgumentException(
                    "'%s': host name of %d characters (expected: 1..253)".formatted(entry, name.length()));
        }
        String[] labels = name.split("\\.", -1);
        for (String label : labels) {
            if (!validLabel(label)) {
                throw new IllegalArgumentException(
                        "'%s': label '%s' (expected: 1..63 of a-z, 0-9, '-', '_', no '-' at either end)"
                                .formatted(entry, label));
            }
        }
        if (labels[labels.length - 1].chars().allMatch(c -> c >= '0' && c <= '9')) {
            // Resolvers read "127.1" or "10.0.0.010" as addresses: such a name would claim an IP by accident.
            throw new IllegalArgumentException(
                    "'%s': ends in a numeric label (expected: a host name or a strict IP literal)".formatted(entry));
        }
        return name;
    }

    private static boolean validLabel(String label) {
        if (label.isEmpty() || label.length() > MAX_LABEL || label.startsWith("-") || label.endsWith("-")) {
            return false;
        }
        return label.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_');
    }

    private static String stripDot(String text) {
        return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
    }

    /**
     * The entry as the tenants file would write it, normalised.
     *
     * @return e.g. {@code *.example.com:443} or {@code [2001:db8::7]:443}
     */
    @Override
    public String toString() {
        String written = wildcard ? "*." + host : host;
        if (port == 0) {
            return written;
        }
        return host.indexOf(':') >= 0 ? "[" + written + "]:" + port : written + ":" + port;
    }
}
