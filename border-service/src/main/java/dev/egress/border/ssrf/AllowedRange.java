package dev.egress.border.ssrf;

import java.util.Optional;

/**
 * One entry of {@code egress.ssrf.allowed-ranges}: a range exempt from the deny list, optionally only
 * on some ports. Only an entry that names its ports reopens an address of the Border's own host
 * (loopback, an interface address): allowing {@code 127.0.0.1/32} must not make the App or the
 * coordination node next door a webhook target, allowing {@code 127.0.0.1/32:9999} allows one sink.
 *
 * <p>Forms: {@code 10.0.0.0/8}, {@code 127.0.0.1/32:9999}, {@code 127.0.0.1:9999},
 * {@code 10.0.0.0/8:8000-8999}, {@code fd00::/8:443}, {@code [::1]:9999}.
 *
 * @param range the addresses
 * @param ports the ports, or empty for every port
 */
record AllowedRange(Cidr range, Optional<PortRange> ports) {

    /**
     * Parses an entry.
     *
     * @param text the entry
     * @return the entry
     * @throws IllegalArgumentException if the address, prefix or ports do not parse
     */
    public static AllowedRange parse(String text) {
        String t = text == null ? "" : text.strip();
        String address = t;
        String ports = null;
        int slash = t.indexOf('/');
        if (slash >= 0) {
            // After a prefix length, a colon can only start the ports.
            int colon = t.indexOf(':', slash);
            if (colon >= 0) {
                address = t.substring(0, colon);
                ports = t.substring(colon + 1);
            }
        } else if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("'%s' (expected: [ipv6] or [ipv6]:port)".formatted(text));
            }
            address = t.substring(1, close);
            String rest = t.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new IllegalArgumentException("'%s' (expected: [ipv6] or [ipv6]:port)".formatted(text));
                }
                ports = rest.substring(1);
            }
        } else if (t.indexOf(':') == t.lastIndexOf(':') && t.indexOf(':') >= 0) {
            // One colon: an IPv4 address with ports (an IPv6 literal has at least two colons).
            address = t.substring(0, t.indexOf(':'));
            ports = t.substring(t.indexOf(':') + 1);
        }
        Cidr cidr = Cidr.parse(address);
        return new AllowedRange(cidr, ports == null ? Optional.empty() : Optional.of(PortRange.parse(ports)));
    }

    /**
     * Whether this entry names its ports (and may therefore reopen an address of the Border's host).
     *
     * @return true if ports were given
     */
    public boolean explicitPorts() {
        return ports.isPresent();
    }

    /**
     * Whether the entry allows the address on the port.
     *
     * @param address the address
     * @param port    the port
     * @return true if both match
     */
    boolean allows(inet.ipaddr.IPAddress address, int port) {
        return range.contains(address) && ports.map(p -> p.contains(port)).orElse(true);
    }

    @Override
    public String toString() {
        return ports.map(p -> range + ":" + p).orElse(range.toString());
    }
}
