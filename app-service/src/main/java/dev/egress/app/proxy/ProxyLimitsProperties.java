package dev.egress.app.proxy;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * What one sender or one tenant may hold of the proxy's App ({@code egress.proxy.limits.*}): connections that have
 * not yet sent a whole request head, and the memory of the bytes on their way from targets to senders. Each limit
 * is enforced without buffering more: a connection over the head limits is closed at once, and a tunnel over a
 * memory budget stops reading the Border's stream (so the Border stops reading the target) until the bytes held are
 * written.
 *
 * @param headConnections          connections still sending their request head, in all; one more is closed at once
 * @param headConnectionsPerSource connections still sending their request head from one source address
 * @param bufferMemory             bytes from targets held for senders in this App, every tunnel together
 * @param bufferMemoryPerTenant    bytes from targets held for one tenant's senders (the shared pool and the
 *                                 credential-less door count per sender address)
 * @param senderStallTimeout       a tunnel whose sender takes none of the bytes waiting for it for this long is
 *                                 closed ({@code sender-stalled})
 */
@Validated
@ConfigurationProperties("egress.proxy.limits")
public record ProxyLimitsProperties(
        @DefaultValue("4096") int headConnections,
        @DefaultValue("64") int headConnectionsPerSource,
        @DefaultValue("64MB") DataSize bufferMemory,
        @DefaultValue("16MB") DataSize bufferMemoryPerTenant,
        @DefaultValue("30s") Duration senderStallTimeout) {

    /** Checks every rule. */
    public ProxyLimitsProperties {
        if (headConnections < 1 || headConnectionsPerSource < 1 || headConnectionsPerSource > headConnections) {
            throw new IllegalArgumentException(
                    "egress.proxy.limits.head-connections: %d, head-connections-per-source: %d (expected: 1 <= per source <= all)"
                            .formatted(headConnections, headConnectionsPerSource));
        }
        if (bufferMemory == null
                || bufferMemoryPerTenant == null
                || bufferMemoryPerTenant.toBytes() < 1
                || bufferMemoryPerTenant.toBytes() > bufferMemory.toBytes()) {
            throw new IllegalArgumentException(
                    "egress.proxy.limits.buffer-memory: %s, buffer-memory-per-tenant: %s (expected: 0 < per tenant <= all)"
                            .formatted(bufferMemory, bufferMemoryPerTenant));
        }
        if (senderStallTimeout == null || senderStallTimeout.isNegative() || senderStallTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "egress.proxy.limits.sender-stall-timeout: %s (expected: > 0)".formatted(senderStallTimeout));
        }
    }
}
