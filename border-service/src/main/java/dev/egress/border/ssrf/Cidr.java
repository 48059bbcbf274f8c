package dev.egress.border.ssrf;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An address range such as {@code 10.0.0.0/8} or {@code fc00::/7}. IPv4 ranges match only IPv4
 * addresses; embedded IPv4 forms are unwrapped by {@link DenyList} before matching.
 *
 * @param network      the network address bytes (4 or 16)
 * @param prefixLength the prefix length
 */
public record Cidr(byte[] network, int prefixLength) {

    /** Validates the prefix length against the family. */
    public Cidr {
        if (network == null || (network.length != 4 && network.length != 16)) {
            throw new IllegalArgumentException("network: expected 4 or 16 bytes");
        }
        if (prefixLength < 0 || prefixLength > network.length * 8) {
            throw new IllegalArgumentException("prefix: /%d (expected: 0..%d)".formatted(prefixLength, network.length * 8));
        }
        network = network.clone();
    }

    /**
     * Parses {@code a.b.c.d/n}, {@code x::y/n}, or a single address (a /32 or /128).
     *
     * @param text the CIDR
     * @return the range
     * @throws IllegalArgumentException if the text is not an IP literal with an optional prefix
     */
    public static Cidr parse(String text) {
        String trimmed = text.strip();
        int slash = trimmed.indexOf('/');
        String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
        byte[] bytes = literal(address);
        if (bytes == null) {
            throw new IllegalArgumentException("cidr: '%s' (expected: an IP literal with an optional /prefix)".formatted(text));
        }
        int prefix;
        try {
            prefix = slash < 0 ? bytes.length * 8 : Integer.parseInt(trimmed.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("cidr: '%s' (expected: a numeric prefix length)".formatted(text));
        }
        return new Cidr(bytes, prefix);
    }

    /**
     * Whether the address is in the range.
     *
     * @param address raw address bytes (4 or 16)
     * @return true if the families match and the first {@code prefixLength} bits are equal
     */
    public boolean contains(byte[] address) {
        if (address.length != network.length) {
            return false;
        }
        int full = prefixLength / 8;
        for (int i = 0; i < full; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (address[full] & mask) == (network[full] & mask);
    }

    private static byte[] literal(String text) {
        // Strict forms only: a dotted quad, or anything with a colon (which InetAddress never resolves).
        if (!text.contains(":") && Ipv4Literals.parseDottedQuad(text) == null) {
            return null;
        }
        if (!text.contains(":")) {
            return Ipv4Literals.parseDottedQuad(text);
        }
        if (!text.matches("[0-9A-Fa-f:.]+")) {
            return null;
        }
        try {
            byte[] bytes = InetAddress.getByName(text).getAddress();
            // ::ffff:a.b.c.d comes back as 4 bytes; keep the IPv6 form so the family stays what was written.
            return bytes.length == 4 ? mapped(bytes) : bytes;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static byte[] mapped(byte[] v4) {
        byte[] v6 = new byte[16];
        v6[10] = (byte) 0xff;
        v6[11] = (byte) 0xff;
        System.arraycopy(v4, 0, v6, 12, 4);
        return v6;
    }

    /**
     * The network address.
     *
     * @return a copy of the bytes (the record stays immutable)
     */
    @Override
    public byte[] network() {
        return network.clone();
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixLength;
        } catch (UnknownHostException e) {
            return "?/" + prefixLength;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && c.prefixLength == prefixLength && java.util.Arrays.equals(c.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(network) + prefixLength;
    }
}
