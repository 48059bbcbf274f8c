package dev.egress.discovery;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * A dedicated source IP, always held in canonical text form so that {@code 2001:DB8::1} and
 * {@code 2001:db8:0:0:0:0:0:1} are one key. Only literals are accepted: no DNS lookup ever happens
 * here, and lenient IPv4 forms ({@code 127.1}, {@code 0x7f.0.0.1}, leading zeros) are rejected.
 *
 * @param value canonical text form
 */
public record EgressIp(String value) implements Comparable<EgressIp> {

    private static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

    /** Requires the canonical form; use {@link #of(String)} to parse arbitrary literals. */
    public EgressIp {
        if (value == null || !value.equals(canonical(value))) {
            throw new IllegalArgumentException("ip: '%s' (expected: a canonical IPv4 or IPv6 literal)".formatted(value));
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
            throw new IllegalArgumentException("ip: '%s' (expected: an IPv4 or IPv6 literal)".formatted(text));
        }
        return new EgressIp(canonical);
    }

    /**
     * The address, for binding sockets.
     *
     * @return the address (no lookup: the value is a literal)
     */
    public InetAddress toInetAddress() {
        try {
            return InetAddress.getByName(value);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("canonical literal did not parse: " + value, e);
        }
    }

    private static String canonical(String text) {
        if (text == null || text.isEmpty() || text.length() > 45) {
            return null;
        }
        if (IPV4.matcher(text).matches()) {
            return literal(text) instanceof Inet4Address a ? a.getHostAddress() : null;
        }
        // A colon makes InetAddress treat the text as an IPv6 literal: it never resolves a name.
        if (text.indexOf(':') >= 0 && IPV6_CHARS.matcher(text).matches()) {
            InetAddress address = literal(text);
            if (address instanceof Inet6Address a) {
                return compress(a.getAddress());
            }
            // IPv4-mapped literals (::ffff:a.b.c.d) come back as Inet4Address: keep the mapped IPv6 form.
            if (address instanceof Inet4Address a) {
                return "::ffff:" + a.getHostAddress();
            }
        }
        return null;
    }

    private static InetAddress literal(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** RFC 5952 text: lower case, longest run of zero groups (length ≥ 2) replaced by "::". */
    private static String compress(byte[] bytes) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
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
                out.append(i == 0 ? "::" : ":");
                i += bestLength - 1;
                continue;
            }
            out.append(Integer.toHexString(groups[i]));
            if (i < 7) {
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
