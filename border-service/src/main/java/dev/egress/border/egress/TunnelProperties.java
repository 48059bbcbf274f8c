package dev.egress.border.egress;

import dev.egress.discovery.web.forward.TunnelPorts;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Limits of the tunnel endpoint ({@code egress.tunnel.*}), enforced by the {@link EgressGate} before the tunnel is
 * answered. The connect to the target is bounded by {@code egress.limits.connect-timeout} and App's deadline, as a
 * forward's is.
 *
 * <p>Memory: a tunnel reads its target one 16 KiB buffer at a time, the next only once the previous one has left the
 * HTTP/2 write path to App, so what one tunnel holds in buffers is two reads whatever windows App advertises;
 * {@code bytes-per-tunnel}, reserved when the tunnel is admitted, covers that with room for TLS and socket buffers. A tunnel the Border cannot
 * afford is refused before its {@code 200}, so App never tells a sender a tunnel is up that then dies for want of
 * memory.
 *
 * @param maxPerIp       open tunnels per dedicated IP; one more is refused with 429 {@code too-many-requests}
 *                       (not contacted, so App tries another route). A tunnel holds two sockets, and one source IP
 *                       has about 28k ports per destination
 * @param bytesPerTunnel the buffer memory reserved for each open tunnel
 * @param maxBytesPerTenant the buffer memory the tunnels of one tenant may reserve, over every IP (the tenant App
 *                       names in {@code Egress-Tenant}; for the shared pool, per sender); past it 429
 *                       {@code too-many-requests}, so one tenant cannot take every other tenant's share, shared IPs
 *                       included
 * @param maxBytes       the buffer memory all tunnels of this Border may reserve; past it 429
 *                       {@code too-many-requests} too (not contacted, no fault: App tries another Border). Keep it
 *                       well under the JVM's direct memory
 * @param stallTimeout   a tunnel whose App side takes nothing for this long, while the target has more to send, is
 *                       closed ({@code app-stalled}): it holds the target's connection and its reservation for no one
 * @param idleTimeout    a tunnel without a byte either way for this long is closed ({@code idle-timeout}); above App's
 *                       {@code egress.proxy.idle-timeout}, so App's own limit normally ends it first
 * @param maxLifetime    a tunnel open this long is closed, however busy ({@code max-lifetime}); above App's
 *                       {@code egress.proxy.max-lifetime}
 * @param allowedPorts   the target ports a tunnel may name besides 443 and 80 ({@link TunnelPorts}, the ports
 *                       webhooks use), ports or ranges {@code low-high} as App's {@code egress.proxy.allowed-ports}; another port: 403
 *                       {@code target-denied}, reason {@code PORT_NOT_ALLOWED}, before any lookup
 */
@Validated
@ConfigurationProperties("egress.tunnel")
public record TunnelProperties(
        @DefaultValue("1024") @Min(1) int maxPerIp,
        @DefaultValue("128KB") DataSize bytesPerTunnel,
        @DefaultValue("32MB") DataSize maxBytesPerTenant,
        @DefaultValue("64MB") DataSize maxBytes,
        @DefaultValue("60s") Duration stallTimeout,
        @DefaultValue("6m") Duration idleTimeout,
        @DefaultValue("65m") Duration maxLifetime,
        @DefaultValue List<String> allowedPorts) {

    /** Copies the port list and checks its entries. */
    public TunnelProperties {
        allowedPorts = allowedPorts == null ? List.of() : List.copyOf(allowedPorts);
        TunnelPorts.parse("egress.tunnel.allowed-ports", allowedPorts);
    }

    /**
     * The port rule of tunnels.
     *
     * @return 443, 80 and {@code allowed-ports}
     */
    public TunnelPorts ports() {
        return TunnelPorts.parse("egress.tunnel.allowed-ports", allowedPorts);
    }

    /**
     * Tunnels one tenant may hold open, over every IP: what its byte budget affords.
     *
     * @return the limit (at least 1)
     */
    public int tunnelsPerTenant() {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, maxBytesPerTenant.toBytes() / bytesPerTunnel.toBytes()));
    }

    /**
     * Tunnels this Border may hold open in all.
     *
     * @return the limit (at least 1)
     */
    public int tunnelsInAll() {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, maxBytes.toBytes() / bytesPerTunnel.toBytes()));
    }

    /**
     * The sizes make sense together.
     *
     * @return whether a tunnel fits in the budgets
     */
    @AssertTrue(
            message = "egress.tunnel.bytes-per-tunnel must be > 0 and <= max-bytes-per-tenant <= max-bytes;"
                    + " stall-timeout, idle-timeout and max-lifetime > 0")
    public boolean isConsistent() {
        return bytesPerTunnel.toBytes() > 0
                && positive(stallTimeout)
                && positive(idleTimeout)
                && positive(maxLifetime)
                && bytesPerTunnel.toBytes() <= maxBytesPerTenant.toBytes()
                && maxBytesPerTenant.toBytes() <= maxBytes.toBytes();
    }

    private static boolean positive(Duration duration) {
        return !duration.isNegative() && !duration.isZero();
    }
}
