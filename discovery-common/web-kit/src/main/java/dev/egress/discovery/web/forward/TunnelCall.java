package dev.egress.discovery.web.forward;

import java.util.List;

/**
 * App's tunnel call to a Border, {@code POST /internal/v1/tunnel}: one HTTP/2 stream per tunnel on the pooled
 * mutual-TLS link. The request headers name the source IP and the target; the Border answers 200 once its TCP
 * connection to the target is up (or a problem, before any byte reached the target), then the request body
 * carries the sender's bytes to the target and the response body the target's bytes back, like a gRPC
 * bidirectional stream. The internal token and {@link ForwardDeadline} (for the connect) travel as for a
 * forward.
 *
 * @param host the target host (a DNS name or an IP literal, IPv6 without brackets), lower case
 * @param port the target port, 1..65535
 */
public record TunnelCall(String host, int port) {

    /** The Border's path. */
    public static final String PATH = "/internal/v1/tunnel";

    /** The request header naming the dedicated IP to connect from (its public address). */
    public static final String SOURCE_IP_HEADER = "Egress-Source-Ip";

    /**
     * The request header naming whose tunnel it is: the tenant, or for the shared pool and the credential-less door
     * the tenant and the sender's address (App's own quota key, so those senders share no budget with everybody).
     * The Border counts its tunnel memory budget per this key; a call without it counts under its source IP.
     */
    public static final String TENANT_HEADER = "Egress-Tenant";

    /** Longest {@value #TENANT_HEADER} value a Border accepts. */
    public static final int MAX_TENANT_LENGTH = 200;

    /** The request header naming the target, {@code host:port} ({@code [v6]:port} for IPv6 literals). */
    public static final String TARGET_HEADER = "Egress-Target";

    /** The ports a tunnel may name unless the operator adds more ({@link TunnelPorts}): https and http. */
    public static final List<Integer> DEFAULT_PORTS = List.of(443, 80);

    /** Checks the host ({@link TargetAuthority#host}) and port. */
    public TunnelCall {
        host = TargetAuthority.host(host);
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port: %d (expected: 1..65535)".formatted(port));
        }
    }

    /**
     * Reads a {@code host:port} authority, as a CONNECT request or the {@value #TARGET_HEADER} header carries it
     * ({@link TargetAuthority#parse(String)}: a host and a port, nothing else).
     *
     * @param authority e.g. {@code example.com:443} or {@code [2001:db8::1]:443}
     * @return the target
     * @throws IllegalArgumentException for anything but a host and a port
     */
    public static TunnelCall parse(String authority) {
        return TargetAuthority.parse(authority);
    }

    /**
     * The {@code host:port} form, with brackets around an IPv6 literal.
     *
     * @return the authority
     */
    public String authority() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
