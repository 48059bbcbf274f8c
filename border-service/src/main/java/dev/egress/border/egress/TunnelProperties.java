package dev.egress.border.egress;

import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Limits of the tunnel endpoint ({@code egress.tunnel.*}). The connect to the target is bounded by
 * {@code egress.limits.connect-timeout} and App's deadline, as a forward's is.
 *
 * @param maxPerIp open tunnels per dedicated IP; one more is refused with 429 {@code too-many-requests}
 *                 (not contacted, so App tries another route). A tunnel holds two sockets and a few KB of
 *                 buffers, and one source IP has about 28k ports per destination
 */
@Validated
@ConfigurationProperties("egress.tunnel")
public record TunnelProperties(@DefaultValue("1024") @Min(1) int maxPerIp) {}
