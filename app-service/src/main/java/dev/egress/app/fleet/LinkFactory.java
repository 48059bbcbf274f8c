package dev.egress.app.fleet;

import dev.egress.app.trust.BorderTls;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.web.auth.PresentedToken;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.Http2AllocationStrategy;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Builds the {@link BorderLink} of one Border: one Reactor Netty {@link ConnectionProvider} per Border endpoint,
 * so that a Border that leaves the snapshot can have its connections closed as a whole. With trust material
 * every client speaks mutual TLS and its handshake accepts only the certificate of that Border's id
 * ({@link BorderTls}), so the token and the webhook go to nobody else. Calls travel over HTTP/2 by default (h2
 * negotiated by ALPN on the TLS link, h2c with prior knowledge in insecure-local mode): a delivery waiting for a
 * slow target then holds one stream, not a whole connection, so thousands wait on a few connections
 * (docs/configuration/limits.md). On HTTP/2 every connection is probed with PINGs ({@link LinkLiveness}) and a
 * silent one is closed; while a PING waits for its answer, new calls to that Border wait too
 * ({@link LinkWatch}).
 */
final class LinkFactory {

    /** HTTP/2 receive window per stream on the link (bytes), for tunnels' downloads. */
    static final int STREAM_WINDOW = 1 << 20;

    private final LinkSettings settings;
    private final PresentedToken token;
    private final Optional<BorderTls> tls;

    LinkFactory(LinkSettings settings, PresentedToken internalToken, Optional<BorderTls> tls) {
        this.settings = settings;
        this.token = internalToken;
        this.tls = tls;
    }

    /**
     * Why a Border at this endpoint cannot be called: with trust, only https; without, only http (an https
     * Border could not be verified).
     *
     * @param endpoint the Border's endpoint
     * @return the reason, or null when the endpoint can be verified
     */
    @Nullable
    String unverifiable(URI endpoint) {
        boolean https = "https".equals(endpoint.getScheme().toLowerCase(Locale.ROOT));
        if (https == tls.isPresent()) {
            return null;
        }
        return tls.isPresent()
                ? "refusing plaintext endpoint " + endpoint + " (mutual TLS is configured)"
                : "cannot verify https endpoint " + endpoint + " without egress.trust.*";
    }

    /**
     * Opens (lazily: no connection until the first call) the link to a Border endpoint.
     *
     * @param border   the Border, whose certificate alone the TLS handshake accepts
     * @param endpoint its endpoint
     * @return the link
     */
    BorderLink open(BorderId border, URI endpoint) {
        String base = endpoint.toString();
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        ConnectionProvider provider = pool(border, endpoint);
        HttpClient http = HttpClient.create(provider)
                .protocol(
                        !settings.http2()
                                ? new HttpProtocol[] {HttpProtocol.HTTP11}
                                : tls.isPresent()
                                        ? new HttpProtocol[] {HttpProtocol.H2, HttpProtocol.HTTP11}
                                        : new HttpProtocol[] {HttpProtocol.H2C})
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        Math.min(Integer.MAX_VALUE, settings.connectTimeout().toMillis()))
                .headers(h -> h.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                        .set(HttpHeaderNames.ACCEPT, HttpHeaderValues.APPLICATION_JSON))
                // Per request, not per pool: a rotated token file is presented on pooled connections at once.
                .headersWhen(h -> Mono.just(token.authorization()
                        .map(t -> h.set(HttpHeaderNames.AUTHORIZATION, t))
                        .orElse(h)));
        LinkWatch watch = new LinkWatch();
        if (settings.http2()) {
            // A tunnel's download runs through this side's receive window: HTTP/2's default 64 KiB per stream
            // (and per connection) would stall a bulk tunnel once per window; Netty widens the connection's window
            // to the stream's.
            http = http.http2Settings(h2 -> h2.initialWindowSize(STREAM_WINDOW));
            long interval = settings.pingInterval().toNanos();
            long timeout = settings.pingTimeout().toNanos();
            String name = border.value();
            http = http.doOnChannelInit((observer, channel, address) ->
                    channel.pipeline().addFirst("egress.liveness", new LinkLiveness(interval, timeout, watch, name)));
        }
        if (tls.isPresent()) {
            http = tls.get().secure(http, border, settings.http2());
        }
        return new BorderLink(http, provider, base, watch);
    }

    private ConnectionProvider pool(BorderId border, URI endpoint) {
        ConnectionProvider.Builder pool = ConnectionProvider.builder(
                        "border-" + border + "-" + endpoint.getHost() + "-" + endpoint.getPort())
                .maxConnections(settings.maxConnections())
                .pendingAcquireMaxCount(settings.pendingAcquireMax())
                .pendingAcquireTimeout(settings.pendingAcquireTimeout())
                .maxIdleTime(settings.idleTimeout())
                .evictInBackground(settings.idleTimeout());
        if (settings.http2()) {
            // HTTP/2: a call takes a stream, not a connection. A new connection opens only when every open one
            // carries max-streams-per-connection calls, so 1,000 slow calls need 10 connections, not 1,000.
            pool.allocationStrategy(Http2AllocationStrategy.builder()
                    .maxConnections(settings.maxConnections())
                    .maxConcurrentStreams(settings.maxStreamsPerConnection())
                    .minConnections(1)
                    .build());
        }
        return pool.build();
    }
}
