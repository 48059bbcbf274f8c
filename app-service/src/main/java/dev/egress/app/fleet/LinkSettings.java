package dev.egress.app.fleet;

import java.time.Duration;

/**
 * How App's link to one Border is built: its connection pool, protocol and PING liveness. Taken from
 * {@code egress.dispatch.*} (whose record documents and validates each value), so that the fleet needs no
 * properties of its own.
 *
 * @param maxConnections          pooled connections to one Border endpoint
 * @param pendingAcquireMax       calls that may wait for a pooled connection (HTTP/2: a free stream)
 * @param pendingAcquireTimeout   how long such a call waits at most
 * @param idleTimeout             idle pooled connections are closed after this
 * @param http2                   HTTP/2 (h2 on TLS, h2c in plaintext); false: HTTP/1.1
 * @param maxStreamsPerConnection HTTP/2 calls one connection carries at most
 * @param connectTimeout          TCP connect limit
 * @param pingInterval            HTTP/2: read silence after which a PING goes out
 * @param pingTimeout             HTTP/2: read silence after a PING after which the connection is silent
 */
public record LinkSettings(
        int maxConnections,
        int pendingAcquireMax,
        Duration pendingAcquireTimeout,
        Duration idleTimeout,
        boolean http2,
        int maxStreamsPerConnection,
        Duration connectTimeout,
        Duration pingInterval,
        Duration pingTimeout) {

    /** Refuses settings no pool can be built from. */
    public LinkSettings {
        if (maxConnections < 1 || pendingAcquireMax < 1 || maxStreamsPerConnection < 1) {
            throw new IllegalArgumentException(
                    "maxConnections, pendingAcquireMax, maxStreamsPerConnection: %d, %d, %d (expected: >= 1)"
                            .formatted(maxConnections, pendingAcquireMax, maxStreamsPerConnection));
        }
        if (pingInterval.isNegative() || pingInterval.isZero() || pingTimeout.isNegative() || pingTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "pingInterval, pingTimeout: %s, %s (expected: > 0)".formatted(pingInterval, pingTimeout));
        }
    }
}
