package dev.egress.border.ssrf;

import inet.ipaddr.IPAddress;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv6.IPv6Address;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The ranges no webhook may reach (docs/architecture.md, "The SSRF guard"): private, loopback, link-local,
 * shared, documentation, multicast and reserved space, special-purpose IPv6 blocks, plus every IPv6 form that
 * embeds an IPv4 address — those are judged by the embedded IPv4 address too, so {@code [::ffff:127.0.0.1]},
 * {@code [64:ff9b::7f00:1]} or {@code [::ffff:0:7f00:1]} is loopback.
 */
enum DenyList {
    ; // no instances: the lists and static checks only

    static final List<Cidr> IPV4 = parse(
            "0.0.0.0/8",
            "10.0.0.0/8",
            "100.64.0.0/10",
            "127.0.0.0/8",
            "169.254.0.0/16",
            "172.16.0.0/12",
            "192.0.0.0/24",
            "192.0.2.0/24",
            "192.168.0.0/16",
            "198.18.0.0/15",
            "198.51.100.0/24",
            "203.0.113.0/24",
            "224.0.0.0/4",
            "240.0.0.0/4",
            "255.255.255.255/32",
            // 6to4 relay anycast (RFC 7526, deprecated): traffic there is tunnelled to wherever a relay decides.
            "192.88.99.0/24",
            // Azure WireServer / host agent: a metadata endpoint outside link-local space.
            "168.63.129.16/32");

    static final List<Cidr> IPV6 = parse(
            "::/128",
            "::1/128",
            "fc00::/7",
            "fe80::/10",
            "ff00::/8",
            "2001:db8::/32",
            "fd00:ec2::254/128",
            // IPv4-compatible (deprecated) ::a.b.c.d: no legitimate public use.
            "::/96",
            // Local-use IPv4/IPv6 translation prefix (RFC 8215): a NAT64 inside the operator's network.
            "64:ff9b:1::/48",
            // SIIT IPv4-translated addresses (RFC 2765) ::ffff:0:a.b.c.d.
            "::ffff:0:0:0/96",
            // Deprecated site-local (RFC 3879), discard-only (RFC 6666), benchmarking (RFC 5180),
            // ORCHID v1 and v2 (RFC 4843, 7343), documentation (RFC 9637), SRv6 SIDs (RFC 9602).
            "fec0::/10",
            "100::/64",
            "2001:2::/48",
            "2001:10::/28",
            "2001:20::/28",
            "3fff::/20",
            "5f00::/16");

    private static final Cidr COMPATIBLE = Cidr.parse("::/96");
    private static final Cidr SIIT = Cidr.parse("::ffff:0:0:0/96");
    private static final Cidr NAT64 = Cidr.parse("64:ff9b::/96");
    private static final Cidr LOCAL_NAT64 = Cidr.parse("64:ff9b:1::/48");

    /**
     * The IPv4 addresses carried inside an IPv6 address, if it is one of the embedding forms. The
     * IPv4-mapped form is not listed: the guard treats {@code ::ffff:a.b.c.d} as the IPv4 address
     * itself, since that is where the kernel sends it.
     *
     * @param address any address
     * @return the embedded IPv4 addresses (none for IPv4 or a plain IPv6 address)
     */
    static List<IPv4Address> embeddedIpv4(IPAddress address) {
        if (!address.isIPv6()) {
            return List.of();
        }
        IPv6Address v6 = address.toIPv6();
        if (v6.isLoopback() || v6.isZero()) {
            // ::1 and :: sit inside ::/96 but embed nothing; both are denied as themselves.
            return List.of();
        }
        List<IPv4Address> out = new ArrayList<>(2);
        if (v6.isIPv4Mapped() || NAT64.contains(v6) || SIIT.contains(v6) || COMPATIBLE.contains(v6)) {
            out.add(v6.getEmbeddedIPv4Address());
        } else if (LOCAL_NAT64.contains(v6)) {
            // RFC 6052 allows several layouts under a /48; translators are configured with the /96 one
            // in practice, so read the last 32 bits. The whole /48 is denied anyway.
            out.add(v6.getEmbeddedIPv4Address());
        } else if (v6.is6To4()) {
            out.add(v6.get6To4IPv4Address());
        } else if (v6.isTeredo()) {
            // Teredo carries the client's IPv4 address inverted in the last 32 bits, and the Teredo
            // server's address (reachable through the tunnel as well) in bits 32..63.
            out.add(new IPv4Address(~v6.getEmbeddedIPv4Address().intValue()));
            out.add(v6.getEmbeddedIPv4Address(4));
        }
        return out;
    }

    /**
     * The first deny range containing the address itself (not its embedded IPv4 address).
     *
     * @param address any address
     * @return the range, or null if the address is not denied
     */
    static @Nullable Cidr denyingRange(IPAddress address) {
        for (Cidr range : address.isIPv4() ? IPV4 : IPV6) {
            if (range.contains(address)) {
                return range;
            }
        }
        return null;
    }

    private static List<Cidr> parse(String... ranges) {
        return Arrays.stream(ranges).map(Cidr::parse).toList();
    }
}
