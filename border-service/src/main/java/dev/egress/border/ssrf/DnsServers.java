package dev.egress.border.ssrf;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/** Parses {@code egress.dns.servers} entries: an IP literal (a DNS server cannot be found by name) and an optional port. */
final class DnsServers {

    private DnsServers() {}

    static InetSocketAddress parse(String text) {
        String host = text;
        int port = 53;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("expected [ipv6]:port");
            }
            host = text.substring(1, close);
            String rest = text.substring(close + 1);
            if (!rest.isEmpty()) {
                port = port(rest.startsWith(":") ? rest.substring(1) : rest);
            }
        } else if (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':')) {
            host = text.substring(0, text.indexOf(':'));
            port = port(text.substring(text.indexOf(':') + 1));
        }
        if (host.contains("/")) {
            throw new IllegalArgumentException(
                    "'%s' is a range (expected: ip:port, e.g. 10.0.0.10:53)".formatted(host));
        }
        // Strict literal parsing: never InetAddress.getByName on text that might be a name.
        InetAddress address = Cidr.parse(host).block().getLower().toInetAddress();
        return new InetSocketAddress(address, port);
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port < 1 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port '%s' (expected: 1..65535)".formatted(text));
        }
    }
}
