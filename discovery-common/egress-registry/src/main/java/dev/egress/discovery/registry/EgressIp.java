package dev.egress.discovery.registry;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.jspecify.annotations.Nullable;

/**
 * A dedicated source IP, always held in canonical text form so that {@code 2001:DB8::1} and
 * {@code 2001:db8:0:0:0:0:0:1} are one key. Only literals are accepted: no DNS lookup ever happens
 * here, and lenient IPv4 forms ({@code 127.1}, {@code 0x7f.0.0.1}, leading zeros) are rejected.
 *
 * <p>Canonical forms: IPv4 as plain dotted decimal; IPv6 as RFC 5952 text (lower case, no leading
 * zeros, the longest run of two or more zero groups as {@code ::}, the first one on a tie). An
 * IPv4-mapped address ({@code ::ffff:a.b.c.d}, in any spelling) is the IPv4 address {@code a.b.c.d}: a
 * socket bound to either sends from the same IPv4 source, so one address must be one key everywhere
 * addresses are compared (tenants file, a Border's IP list, announcements, the operator API), or one
 * IP could be given to two tenants under two spellings.
 *
 * @param value canonical text form
 */
public record EgressIp(String value) implements Comparable<EgressIp> {

    /** Longest IPv6 literal: six full groups and a dotted quad. */
    private static final int MAX_LENGTH = 45;

    /** Requires the canonical form; use {@link #of(String)} to parse arbitrary literals. */
    public EgressIp {
        if (value == null || !value.equals(canonical(value))) {
            throw new IllegalArgumentException(
                    "ip: '%s' (expected: a canonical IPv4 or IPv6 literal)".formatted(value));
        }
    }

    /**
     * Parses an IPv4 or IPv6 literal.
     *
     * @param text the literal (IPv6 without brackets or zone)
     * @return the canonical IP
     * @throws IllegalArgumentException if {@code text} is not a valid literal
     */
    public static EgressIp of(String text) {
        String canonical = canonical(text);
        if (canonical == null) {
            throw new IllegalArgumentException("ip: '%s' (expected: an IPv4 or IPv6 literal)"
                    .formatted(
                            text == null || text.length() <= MAX_LENGTH
                                    ? text
                                    : text.substring(0, MAX_LENGTH) + "..."));
        }
        return new EgressIp(canonical);
    }

    /**
     * Whether this is an IPv6 address (IPv4-mapped ones are IPv4).
     *
     * @return true for IPv6
     */
    public boolean isIpv6() {
        return value.indexOf(':') >= 0;
    }

    /**
     * Whether this is the unspecified address ({@code 0.0.0.0} or {@code ::}): to a socket it means "any
     * local address", so it can never be one dedicated source IP.
     *
     * @return true for {@code 0.0.0.0} and {@code ::}
     */
    public boolean isUnspecified() {
        return toInetAddress().isAnyLocalAddress();
    }

    /**
     * Whether this is a multicast address ({@code 224.0.0.0/4}, {@code ff00::/8}): a group, never a
     * connection's source.
     *
     * @return true for multicast
     */
    public boolean isMulticast() {
        return toInetAddress().isMulticastAddress();
    }

    /**
     * Whether this is a loopback address ({@code 127.0.0.0/8}, {@code ::1}): reachable from this host
     * only, so a dedicated IP only on a local platform.
     *
     * @return true for loopback
     */
    public boolean isLoopback() {
        return toInetAddress().isLoopbackAddress();
    }

    /**
     * The address, for binding sockets.
     *
     * @return the address (no lookup: built from the parsed bytes)
     */
    public InetAddress toInetAddress() {
        try {
            return InetAddress.getByAddress(isIpv6() ? parseIpv6(value) : parseIpv4(value));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("canonical literal did not parse: " + value, e);
        }
    }

    private static @Nullable String canonical(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
            return null;
        }
        if (text.indexOf(':') < 0) {
            // Strict dotted decimal is already canonical: validating is all there is to do.
            return parseIpv4(text) == null ? null : text;
        }
        byte[] bytes = parseIpv6(text);
        return bytes == null ? null : format(bytes);
    }

    /**
     * Strict dotted decimal: exactly four parts of ASCII digits, each 0..255 without leading zeros.
     * Hand-written rather than a regex because snapshot builds parse thousands of these.
     */
    private static byte @Nullable [] parseIpv4(String text) {
        byte[] bytes = new byte[4];
        int part = 0;
        int value = 0;
        int digits = 0;
        for (int i = 0, n = text.length(); i <= n; i++) {
            char c = i < n ? text.charAt(i) : '.';
            if (c == '.') {
                if (digits == 0 || part == 4) {
                    return null;
                }
                bytes[part++] = (byte) value;
                value = 0;
                digits = 0;
            } else if (c >= '0' && c <= '9') {
                if (digits > 0 && value == 0) {
                    return null; // a leading zero: ambiguous (octal in some parsers)
                }
                value = value * 10 + (c - '0');
                if (++digits > 3 || value > 255) {
                    return null;
                }
            } else {
                return null;
            }
        }
        return part == 4 ? bytes : null;
    }

    /**
     * Strict RFC 4291 §2.2 parser, written here because {@link InetAddress#getByName} is lenient
     * (five-digit groups, leading zeros in an embedded IPv4 part) and may resolve names.
     */
    private static byte @Nullable [] parseIpv6(String text) {
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        // An embedded IPv4 part may only end the address, so the part before "::" must not have one.
        int[] head = groups(gap < 0 ? text : text.substring(0, gap), gap < 0);
        int[] tail = gap < 0 ? new int[0] : groups(text.substring(gap + 2), true);
        if (head == null || tail == null) {
            return null;
        }
        int count = head.length + tail.length;
        if (gap < 0 ? count != 8 : count > 7) {
            return null;
        }
        byte[] bytes = new byte[16];
        for (int i = 0; i < head.length; i++) {
            put(bytes, i, head[i]);
        }
        for (int i = 0; i < tail.length; i++) {
            put(bytes, 8 - tail.length + i, tail[i]);
        }
        return bytes;
    }

    /** Parses colon-separated groups of 1..4 hex digits; a final dotted quad counts as two groups. */
    private static int @Nullable [] groups(String part, boolean allowIpv4) {
        if (part.isEmpty()) {
            return new int[0];
        }
        String[] fields = part.split(":", -1);
        boolean dotted = fields[fields.length - 1].indexOf('.') >= 0;
        int[] out = new int[fields.length + (dotted ? 1 : 0)];
        for (int i = 0; i < fields.length; i++) {
            String field = fields[i];
            if (dotted && i == fields.length - 1) {
                byte[] v4 = allowIpv4 ? parseIpv4(field) : null;
                if (v4 == null) {
                    return null;
                }
                out[i] = ((v4[0] & 0xff) << 8) | (v4[1] & 0xff);
                out[i + 1] = ((v4[2] & 0xff) << 8) | (v4[3] & 0xff);
                continue;
            }
            if (field.isEmpty() || field.length() > 4) {
                return null;
            }
            int group = 0;
            for (int c = 0; c < field.length(); c++) {
                int digit = Character.digit(field.charAt(c), 16);
                if (digit < 0 || field.charAt(c) > 'f') {
                    return null;
                }
                group = (group << 4) | digit;
            }
            out[i] = group;
        }
        return out;
    }

    private static void put(byte[] bytes, int group, int value) {
        bytes[2 * group] = (byte) (value >>> 8);
        bytes[2 * group + 1] = (byte) value;
    }

    /**
     * RFC 5952 text: lower case, longest run of zero groups (length ≥ 2) replaced by "::"; an IPv4-mapped
     * address as its IPv4 dotted decimal.
     */
    private static String format(byte[] bytes) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
        }
        if (groups[0] == 0
                && groups[1] == 0
                && groups[2] == 0
                && groups[3] == 0
                && groups[4] == 0
                && groups[5] == 0xffff) {
            // IPv4-mapped: the IPv4 address itself, so that both spellings are one key.
            return "%d.%d.%d.%d".formatted(bytes[12] & 0xff, bytes[13] & 0xff, bytes[14] & 0xff, bytes[15] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 0;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int start = i;
            while (i < 8 && groups[i] == 0) {
                i++;
            }
            if (i - start > bestLength && i - start >= 2) {
                bestStart = start;
                bestLength = i - start;
            }
        }
        StringBuilder out = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            out.append(Integer.toHexString(groups[i]));
            if (i < 7 && i + 1 != bestStart) {
                out.append(':');
            }
        }
        return out.toString();
    }

    @Override
    public int compareTo(EgressIp other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
