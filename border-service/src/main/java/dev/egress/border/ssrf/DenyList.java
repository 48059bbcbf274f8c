package dev.egress.border.ssrf;

import java.util.List;

/**
 * The ranges no webhook may reach (DESIGN §3): private, loopback, link-local, shared, documentation,
 * multicast and reserved space, plus every IPv6 form that embeds an IPv4 address — those are judged
 * by the embedded IPv4 address, so {@code [::ffff:127.0.0.1]} or {@code [64:ff9b::7f00:1]} is loopback.
 */
final class DenyList {

    static final List<Cidr> IPV4 = parse(
            "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
            "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
            "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32");

    static final List<Cidr> IPV6 = parse(
            "::/128", "::1/128", "fc00::/7", "fe80::/10", "ff00::/8", "2001:db8::/32", "fd00:ec2::254/128",
            // IPv4-compatible (deprecated) ::a.b.c.d: no legitimate public use.
            "::/96");

    private static final Cidr MAPPED = Cidr.parse("::ffff:0:0/96");
    private static final Cidr NAT64 = Cidr.parse("64:ff9b::/96");
    private static final Cidr SIX_TO_FOUR = Cidr.parse("2002::/16");
    private static final Cidr TEREDO = Cidr.parse("2001::/32");

    private DenyList() {
    }

    /**
     * The IPv4 address carried inside an IPv6 address, if the IPv6 address is one of the embedding forms.
     *
     * @param v6 16 address bytes
     * @return 4 bytes, or null if nothing is embedded
     */
    static byte[] embeddedIpv4(byte[] v6) {
        if (MAPPED.contains(v6) || NAT64.contains(v6)) {
            return slice(v6, 12, false);
        }
        if (SIX_TO_FOUR.contains(v6)) {
            return slice(v6, 2, false);
        }
        if (TEREDO.contains(v6)) {
            // Teredo carries the client's IPv4 address inverted in the last 32 bits.
            return slice(v6, 12, true);
        }
        return null;
    }

    /**
     * The first deny range containing the address, judging embedding forms by their IPv4 address.
     *
     * @param address 4 or 16 bytes
     * @return the range, or null if the address is not denied
     */
    static Cidr denyingRange(byte[] address) {
        List<Cidr> ranges = address.length == 4 ? IPV4 : IPV6;
        for (Cidr range : ranges) {
            if (range.contains(address)) {
                return range;
            }
        }
        if (address.length == 16) {
            byte[] v4 = embeddedIpv4(address);
            if (v4 != null) {
                Cidr denied = denyingRange(v4);
                if (denied != null) {
                    return denied;
                }
            }
            if (TEREDO.contains(address)) {
                // The Teredo server address (bits 32..63) is reachable through the tunnel as well.
                return denyingRange(slice(address, 4, false));
            }
        }
        return null;
    }

    private static byte[] slice(byte[] bytes, int from, boolean invert) {
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            out[i] = (byte) (invert ? ~bytes[from + i] : bytes[from + i]);
        }
        return out;
    }

    private static List<Cidr> parse(String... ranges) {
        return java.util.Arrays.stream(ranges).map(Cidr::parse).toList();
    }
}
