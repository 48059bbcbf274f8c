package dev.egress.discovery.web.forward;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * The one reading of a tunnel's target, for App's proxy (a CONNECT's authority, an absolute-form URL's) and for the
 * Border, which decodes the same target from {@link TunnelCall#TARGET_HEADER}: a host and a port, nothing else. The
 * host is a DNS name (labels of letters, digits and inner hyphens, 1 to 63 each, 253 in all, the last not all
 * digits), an IPv4 dotted quad (four decimal octets, no leading zero), or an IPv6 literal (in brackets in an
 * authority; no zone); the port is 1 to 65535 in decimal. Anything else ({@code #}, {@code /}, {@code ?}, {@code @},
 * user info, empty labels, percent-encoding, a zone id, octal or short IPv4 forms) is refused before any lookup, so
 * App's destination claims and the Border's vetting read the same host and port.
 */
public final class TargetAuthority {

    private static final int MAX_HOST = 253;
    private static final int MAX_LABEL = 63;

    private TargetAuthority() {}

    /**
     * Reads a {@code host:port} authority, as a CONNECT request or the {@value TunnelCall#TARGET_HEADER} header
     * carries it.
     *
     * @param authority e.g. {@code example.com:443} or {@code [2001:db8::1]:443}
     * @return the target
     * @throws IllegalArgumentException for anything but a host and a port
     */
    public static TunnelCall parse(String authority) {
        if (authority == null) {
            throw new IllegalArgumentException("target: missing (expected: host:port)");
        }
        int colon = authority.lastIndexOf(':');
        int hostEnd = authority.startsWith("[") ? authority.indexOf(']') + 1 : colon;
        if (hostEnd <= 0 || colon != hostEnd) {
            throw new IllegalArgumentException(
                    "target: '%s' (expected: host:port or [ipv6]:port)".formatted(authority));
        }
        return new TunnelCall(hostOf(authority, authority.substring(0, hostEnd)), port(authority, colon + 1));
    }

    /**
     * Reads an authority whose port may be left out, as an absolute-form {@code http://} URL carries it.
     *
     * @param authority   e.g. {@code example.com}, {@code example.com:8080} or {@code [2001:db8::1]}
     * @param defaultPort the port when none is given
     * @return the target
     * @throws IllegalArgumentException for anything but a host and an optional port
     */
    public static TunnelCall parse(String authority, int defaultPort) {
        if (authority == null) {
            throw new IllegalArgumentException("target: missing (expected: host[:port])");
        }
        boolean bracketed = authority.startsWith("[");
        boolean hasPort = bracketed ? authority.indexOf("]:") > 0 : authority.indexOf(':') >= 0;
        if (hasPort) {
            return parse(authority);
        }
        return new TunnelCall(hostOf(authority, authority), defaultPort);
    }

    /**
     * Checks a host as {@link TunnelCall} holds it (an IPv6 literal without brackets) and gives its one spelling.
     *
     * @param host the host
     * @return the host in lower case
     * @throws IllegalArgumentException for anything but a DNS name or an IP literal
     */
    public static String host(String host) {
        if (host == null || host.isEmpty() || host.length() > MAX_HOST) {
            throw new IllegalArgumentException("host: '%s' (expected: a host name or IP literal)".formatted(host));
        }
        String lower = host.toLowerCase(Locale.ROOT);
        boolean valid = lower.indexOf(':') >= 0 ? isIpv6(lower) : isIpv4OrName(lower);
        if (!valid) {
            throw new IllegalArgumentException(
                    "host: '%s' (expected: a DNS name, an IPv4 dotted quad or an IPv6 literal)".formatted(host));
        }
        return lower;
    }

    private static String hostOf(String authority, String text) {
        if (text.startsWith("[")) {
            if (!text.endsWith("]") || text.indexOf(':') < 0) {
                throw new IllegalArgumentException("target: '%s' (expected: [ipv6]:port)".formatted(authority));
            }
            return hostOrRefuse(authority, text.substring(1, text.length() - 1));
        }
        if (text.indexOf(':') >= 0) {
            throw new IllegalArgumentException(
                    "target: '%s' (expected: an IPv6 literal in brackets)".formatted(authority));
        }
        return hostOrRefuse(authority, text);
    }

    private static String hostOrRefuse(String authority, String text) {
        try {
            return host(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("target: '%s' (%s)".formatted(authority, e.getMessage()));
        }
    }

    private static int port(String authority, int from) {
        String text = authority.substring(from);
        if (text.isEmpty() || text.length() > 5 || !allDigits(text)) {
            throw new IllegalArgumentException("target: '%s' (expected: a port 1..65535)".formatted(authority));
        }
        int port = Integer.parseInt(text);
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("target: '%s' (expected: a port 1..65535)".formatted(authority));
        }
        return port;
    }

    private static boolean isIpv4OrName(String host) {
        String[] labels = host.split("\\.", -1);
        String last = labels[labels.length - 1];
        if (!last.isEmpty() && allDigits(last)) {
            return isIpv4(labels);
        }
        for (String label : labels) {
            if (!isLabel(label)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIpv4(String[] labels) {
        if (labels.length != 4) {
            return false;
        }
        for (String octet : labels) {
            if (octet.isEmpty()
                    || octet.length() > 3
                    || !allDigits(octet)
                    || (octet.length() > 1 && octet.charAt(0) == '0')
                    || Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }

    private static boolean isLabel(String label) {
        if (label.isEmpty() || label.length() > MAX_LABEL || label.startsWith("-") || label.endsWith("-")) {
            return false;
        }
        for (int i = 0; i < label.length(); i++) {
            char c = label.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIpv6(String host) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == ':' || c == '.')) {
                return false;
            }
        }
        char first = host.charAt(0);
        if (first == '.') {
            return false;
        }
        try {
            // A text with ':' that starts with a hex digit or ':' is parsed as an IPv6 literal, never looked up.
            InetAddress address = InetAddress.getByName(host);
            return address instanceof Inet6Address || host.startsWith("::ffff:");
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean allDigits(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
