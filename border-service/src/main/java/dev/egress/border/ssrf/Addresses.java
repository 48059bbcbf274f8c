package dev.egress.border.ssrf;

import inet.ipaddr.IPAddress;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv6.IPv6Address;
import java.net.Inet4Address;
import java.net.InetAddress;

/** Conversions between the JDK's addresses (what sockets use) and {@code inet.ipaddr}'s (what range maths uses). */
enum Addresses {
    ; // no instances: static conversions only

    static IPAddress of(InetAddress address) {
        if (address instanceof Inet4Address v4) {
            return new IPv4Address(v4);
        }
        // The scope id never matters for a range check.
        return new IPv6Address(address.getAddress());
    }

    static InetAddress toInet(IPAddress address) {
        return address.toInetAddress();
    }
}
