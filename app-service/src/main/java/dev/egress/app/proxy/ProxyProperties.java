package dev.egress.app.proxy;

import dev.egress.discovery.web.forward.TunnelPorts;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The forward-proxy listener ({@code egress.proxy.*}): a port of its own beside the API, off unless asked for.
 *
 * @param enabled              whether App listens as a forward proxy at all
 * @param address              the address to listen on
 * @param port                 the port to listen on (0: any free port, for tests)
 * @param sslBundle            a Spring SSL bundle ({@code spring.ssl.bundle.*}) to serve the listener over TLS
 *                             ({@code https://} proxy URLs), so that credentials do not cross the network in
 *                             clear; empty for plain HTTP
 * @param connectTimeout       from the CONNECT to the tunnel being up, every attempt included; then 504
 * @param idleTimeout          a tunnel with no byte either way for this long is closed
 * @param maxLifetime          a tunnel open this long is closed, however busy
 * @param maxTunnelsPerTenant  open tunnels per tenant; one more is refused with 429 {@code too-many-tunnels}
 * @param maxTunnelsPerIp      open tunnels per egress IP, counted by App; one more is refused with 429
 * @param allowedPorts         the target ports a CONNECT may name besides 443 and 80 ({@link TunnelPorts}, the
 *                             ports webhooks use), each a port or a range {@code low-high}; another port: 403
 *                             {@code target-denied}, reason {@code port-not-allowed}
 * @param requestHeaderTimeout a request head (the CONNECT line and headers) must arrive within this
 * @param unauthenticatedSources sender address ranges (CIDR) whose requests without {@code Proxy-Authorization}
 *                             are served as an empty user with a token of no tenant, for senders that cannot send
 *                             credentials; empty (the default) for none. Everyone else still needs a token
 */
@Validated
@ConfigurationProperties("egress.proxy")
public record ProxyProperties(
        @DefaultValue("false") boolean enabled,
        @DefaultValue("0.0.0.0") String address,
        @DefaultValue("3128") int port,
        @Nullable String sslBundle,
        @DefaultValue("10s") Duration connectTimeout,
        @DefaultValue("5m") Duration idleTimeout,
        @DefaultValue("1h") Duration maxLifetime,
        @DefaultValue("512") int maxTunnelsPerTenant,
        @DefaultValue("1024") int maxTunnelsPerIp,
        @DefaultValue List<String> allowedPorts,
        @DefaultValue("10s") Duration requestHeaderTimeout,
        @DefaultValue List<String> unauthenticatedSources) {

    /** Checks every rule and copies the port list. */
    public ProxyProperties {
        if (address == null || address.isBlank()) {
            throw new IllegalArgumentException("egress.proxy.address: empty (expected: an IP address or host name)");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("egress.proxy.port: %d (expected: 0..65535)".formatted(port));
        }
        positive("connect-timeout", connectTimeout);
        positive("idle-timeout", idleTimeout);
        positive("max-lifetime", maxLifetime);
        positive("request-header-timeout", requestHeaderTimeout);
        if (maxTunnelsPerTenant < 1) {
            throw new IllegalArgumentException(
                    "egress.proxy.max-tunnels-per-tenant: %d (expected: >= 1)".formatted(maxTunnelsPerTenant));
        }
        if (maxTunnelsPerIp < 1) {
            throw new IllegalArgumentException(
                    "egress.proxy.max-tunnels-per-ip: %d (expected: >= 1)".formatted(maxTunnelsPerIp));
        }
        allowedPorts = allowedPorts == null ? List.of() : List.copyOf(allowedPorts);
        TunnelPorts.parse("egress.proxy.allowed-ports", allowedPorts);
        unauthenticatedSources = unauthenticatedSources == null ? List.of() : List.copyOf(unauthenticatedSources);
        for (String range : unauthenticatedSources) {
            try {
                SourceRange.parse(range);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("egress.proxy.unauthenticated-sources: " + e.getMessage(), e);
            }
        }
        sslBundle = sslBundle == null || sslBundle.isBlank() ? null : sslBundle;
    }

    /**
     * Whether a CONNECT may name a port.
     *
     * @param targetPort the port
     * @return true for 443, 80 and the ports the operator added
     */
    public boolean allows(int targetPort) {
        return TunnelPorts.parse("egress.proxy.allowed-ports", allowedPorts).allows(targetPort);
    }

    /**
     * The parsed {@code unauthenticated-sources}.
     *
     * @return the ranges, possibly empty
     */
    List<SourceRange> unauthenticatedRanges() {
        return unauthenticatedSources.stream().map(SourceRange::parse).toList();
    }

    private static void positive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("egress.proxy.%s: %s (expected: > 0)".formatted(name, value));
        }
    }
}
