package dev.egress.app.proxy;

/**
 * What every proxy connection shares.
 *
 * @param properties    {@code egress.proxy.*}
 * @param authenticator the credentials check
 * @param dispatcher    the tunnels' way out
 * @param limits        the open-tunnel counts
 * @param metrics       meters and the tunnel log
 */
record ProxyContext(
        ProxyProperties properties,
        ProxyAuthenticator authenticator,
        TunnelDispatcher dispatcher,
        TunnelLimits limits,
        ProxyMetrics metrics) {}
