package dev.egress.border.ssrf;

import java.util.Locale;

/**
 * IPv4 host parsing as browsers and curl do it (WHATWG URL "IPv4 parser"): {@code 2130706433},
 * {@code 0x7f000001}, {@code 0177.0.0.1} and {@code 127.1} all mean 127.0.0.1. The JDK reads some of
 * these differently (as decimal, or as a DNS name), so the guard decides itself, before any lookup.
 */
final class Ipv4Literals {

    private Ipv4Literals() {
    }

    /**
     * Whether a host must be treated as an IPv4 address: its last label is numeric (decimal, octal
     * or {@code 0x} hex). Such a host never goes to DNS.
     *
     * @param host the URL host, lower case, without a trailing dot
     * @return true if the host is an IPv4 form (valid or not)
     */
    static boolean looksNumeric(String host) {
        String[] parts = host.split("\\.", -1);
        String last = parts[parts.length - 1];
        if (last.isEmpty() && parts.length > 1) {
            last = parts[parts.length - 2];
        }
        if (last.isEmpty()) {
            return false;
        }
        if (last.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return true;
        }
        return last.startsWith("0x") && last.substring(2).chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    /**
     * Parses a numeric host in any of the 1..4-part forms with decimal, octal or hex parts.
     *
     * @param host the host (see {@link #looksNumeric})
     * @return the 4 address bytes, or null if the form is invalid (e.g. a part out of range)
     */
    static byte[] parseLenient(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        String[] parts = h.split("\\.", -1);
        if (parts.length > 4) {
            return null;
        }
        long[] numbers = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            Long n = number(parts[i]);
            if (n == null) {
                return null;
            }
            numbers[i] = n;
        }
        for (int i = 0; i < numbers.length - 1; i++) {
            if (numbers[i] > 255) {
                return null;
            }
        }
        long last = numbers[numbers.length - 1];
        if (last >= 1L << (8 * (5 - numbers.length))) {
            return null;
        }
        long value = last;
        for (int i = 0; i < numbers.length - 1; i++) {
            value += numbers[i] << (8 * (3 - i));
        }
        return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }

    /**
     * Parses only the canonical dotted quad (no leading zeros, four decimal parts).
     *
     * @param text the text
     * @return the 4 bytes, or null
     */
    static byte[] parseDottedQuad(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || (p.length() > 1 && p.charAt(0) == '0')
                    || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            out[i] = (byte) v;
        }
        return out;
    }

    private static Long number(String part) {
        if (part.isEmpty() || part.length() > 32) {
            return null;
        }
        int radix = 10;
        String digits = part;
        if (part.startsWith("0x")) {
            radix = 16;
            digits = part.substring(2);
            if (digits.isEmpty()) {
                return 0L;
            }
        } else if (part.length() > 1 && part.charAt(0) == '0') {
            radix = 8;
            digits = part.substring(1);
        }
        final int base = radix;
        // Long.parseLong would accept a sign; a URL host part never has one.
        if (!digits.chars().allMatch(c -> Character.digit(c, base) >= 0)) {
            return null;
        }
        try {
            long n = Long.parseLong(digits, radix);
            return n < 0 || n > 0xffffffffL ? null : n;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
