/**
 * The forward proxy: App's listener on {@code egress.proxy.port} (3128) for senders that set an HTTP proxy
 * instead of calling {@code POST /v1/deliveries}. {@code ProxyServer} (the Netty listener and its lifecycle),
 * {@code ProxyFrontend} (one connection: the request head, then a CONNECT tunnel), {@code ProxyAuthenticator}
 * (Basic credentials: the user names the tenant, the password is an API token), {@code ProxyAnswers} (the
 * problem+json answers before a tunnel is up), {@code TunnelLimits} and {@code ProxyMetrics}. Tunnels leave
 * through {@code dev.egress.app.dispatch.TunnelDispatcher}, exactly as deliveries do.
 */
@NullMarked
package dev.egress.app.proxy;

import org.jspecify.annotations.NullMarked;
