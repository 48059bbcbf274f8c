/**
 * The forward proxy: App's listener on {@code egress.proxy.port} (3128) for senders that set an HTTP proxy
 * instead of calling {@code POST /v1/deliveries}. {@code ProxyServer} (the Netty listener and its lifecycle); one
 * connection's phases, a handler each: {@code ProxyHead} (the request head, the checks of {@code ProxyDoor} and
 * {@code ProxyAuthenticator}), {@code TunnelOpening} (the tunnel asked for), then the splice ({@code SenderToTarget},
 * {@code TargetWriter}) under {@code Tunnel}'s limits; {@code ProxyRequest} (where CONNECT and absolute-form
 * differ), {@code ProxyAnswers} (the problem+json answers before a tunnel is up), {@code TunnelLimits} and
 * {@code ProxyMetrics}. Tunnels leave through {@code TunnelDispatcher}, on the one attempt engine
 * ({@code dev.egress.app.attempts.AttemptLoop}) that carries deliveries.
 */
@NullMarked
package dev.egress.app.proxy;

import org.jspecify.annotations.NullMarked;
