package dev.egress.app.proxy;

/**
 * What every proxy connection shares.
 *
 * @param properties    {@code egress.proxy.*}
 * @param limitSettings {@code egress.proxy.limits.*}
 * @param authenticator the credentials check
 * @param dispatcher    the tunnels' way out
 * @param limits        the open-tunnel counts
 * @param metrics       meters and the tunnel log
 * @param heads         the places of connections still sending their request head
 * @param memory        the byte budget of what targets send to senders
 */
record ProxyContext(
        ProxyProperties properties,
        ProxyLimitsProperties limitSettings,
        ProxyAuthenticator authenticator,
        TunnelDispatcher dispatcher,
        TunnelLimits limits,
        ProxyMetrics metrics,
        HeadSlots heads,
        TunnelMemory memory) {}
