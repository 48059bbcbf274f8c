package dev.egress.app.dispatch;

import dev.egress.app.trust.BorderTls;
import dev.egress.discovery.Announcement;
import dev.egress.discovery.BorderId;
import dev.egress.discovery.Route;
import dev.egress.discovery.RoutingSnapshot;
import dev.egress.discovery.auth.PresentedToken;
import dev.egress.discovery.forward.ForwardDeadline;
import dev.egress.discovery.forward.TunnelCall;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.Http2AllocationStrategy;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import tools.jackson.databind.json.JsonMapper;

/**
 * Calls Borders. One Reactor Netty {@link ConnectionProvider} per Border (endpoint and id), so that the
 * connections of a Border that leaves the snapshot can be closed as a whole: a removed endpoint must
 * not keep receiving traffic over a pooled keep-alive connection. Endpoints are known only from the
 * snapshot; a route whose endpoint already left is refused here without a call. With trust material
 * every client speaks mutual TLS and its handshake accepts only the certificate of the route's
 * Border ({@link BorderTls}), so the token and the webhook go to nobody else; a refused handshake is
 * an attempt that sent nothing. Calls travel over HTTP/2 by default (h2 negotiated by ALPN on the TLS link,
 * h2c with prior knowledge in insecure-local mode): a delivery waiting for a slow target then holds one
 * stream, not a whole connection, so thousands wait on a few connections (docs/configuration/limits.md).
 * On HTTP/2 every connection is probed with PINGs ({@link LinkLiveness}) and a silent one is closed; while a
 * PING waits for its answer, new calls to that Border wait too ({@link LinkWatch}), so they are not written
 * into a connection that may be dead. Each call carries its attempt's deadline ({@link ForwardDeadline}).
 */
public final class BorderClients implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BorderClients.class);
    private static final String EGRESS_PATH = "/internal/v1/egress";
    private static final String IPS_PATH = "/internal/v1/ips/";

    /**
     * A Border's answer to an IP status change (see {@link #changeIpStatus}).
     *
     * @param status  the Border's HTTP status; 0 when there was no answer
     * @param body    the answer's body (JSON), empty without an answer
     * @param failure why there was no answer (connect failure, timeout), null when the Border answered
     */
    public record OpsReply(
            int status, byte[] body, @Nullable String failure) {}

    /**
     * One Border's pool. A Border that leaves the snapshot gets no new calls at once, but its pool is closed only
     * when the calls already on it have ended: closing it under them would cut answers a draining Border still
     * sends (a rolling restart would turn them into 502s that may have reached the target).
     */
    private static final class Client {
        private final HttpClient http;
        private final ConnectionProvider provider;
        private final String egressUrl;
        private final LinkWatch watch;
        private final AtomicInteger inFlight = new AtomicInteger();
        private final AtomicBoolean retired = new AtomicBoolean();
        private final AtomicBoolean closed = new AtomicBoolean();

        Client(HttpClient http, ConnectionProvider provider, String egressUrl, LinkWatch watch) {
            this.http = http;
            this.provider = provider;
            this.egressUrl = egressUrl;
            this.watch = watch;
        }

        LinkWatch watch() {
            return watch;
        }

        HttpClient http() {
            return http;
        }

        ConnectionProvider provider() {
            return provider;
        }

        String egressUrl() {
            return egressUrl;
        }

        void started() {
            inFlight.incrementAndGet();
        }

        void ended() {
            if (inFlight.decrementAndGet() == 0 && retired.get()) {
                close();
            }
        }

        /** No new calls come; the pool closes now if idle, else when its last call ends. */
        void retire() {
            retired.set(true);
            if (inFlight.get() == 0) {
                close();
            }
        }

        void close() {
            if (closed.compareAndSet(false, true)) {
                provider.disposeLater().subscribe();
            }
        }
    }

    /** A Border as a route names it: the TLS identity expected at an endpoint is part of the key. */
    private record Key(URI endpoint, BorderId borderId) {}

    private final ConcurrentHashMap<Key, Client> clients = new ConcurrentHashMap<>();
    private final DispatchProperties properties;
    private final JsonMapper json;
    private final PresentedToken token;
    private final TraceHeaders trace;
    private final Optional<BorderTls> tls;
    private final int maxAnswerBytes;
    private volatile Set<Key> live = Set.of();

    BorderClients(
            DispatchProperties properties, JsonMapper json, PresentedToken internalToken, Optional<BorderTls> tls) {
        this(properties, json, internalToken, tls, TraceHeaders.NONE);
    }

    BorderClients(
            DispatchProperties properties,
            JsonMapper json,
            PresentedToken internalToken,
            Optional<BorderTls> tls,
            TraceHeaders trace) {
        this.trace = trace;
        this.properties = properties;
        this.json = json;
        this.token = internalToken;
        this.tls = tls;
        this.maxAnswerBytes = (int)
                Math.min(Integer.MAX_VALUE, properties.maxBorderAnswerSize().toBytes());
    }

    /**
     * Follows the snapshot: remembers the live endpoints and disposes the pools of the others.
     *
     * @param snapshot the new snapshot
     */
    void retain(RoutingSnapshot snapshot) {
        Set<Key> endpoints = new HashSet<>();
        for (Announcement announcement : snapshot.announcements().values()) {
            endpoints.add(new Key(announcement.endpoint(), announcement.borderId()));
        }
        live = Set.copyOf(endpoints);
        for (Map.Entry<Key, Client> entry : clients.entrySet()) {
            if (!endpoints.contains(entry.getKey()) && clients.remove(entry.getKey(), entry.getValue())) {
                entry.getValue().retire();
                log.info(
                        "Closing connections to {} once its calls in flight end: no live Border announces it",
                        entry.getKey());
            }
        }
    }

    /**
     * Sends one forward request. Never fails: every failure is classified into the result.
     *
     * @param route    the route (Border and source IP)
     * @param body     the serialised {@link dev.egress.discovery.forward.ForwardRequest}
     * @param deadline the attempt's deadline, sent to the Border
     * @return the attempt's result
     */
    Mono<AttemptResult> call(Route route, byte[] body, ForwardDeadline deadline) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            Key key = new Key(route.endpoint(), route.borderId());
            if (!live.contains(key)) {
                return Mono.just(AttemptResult.failed(
                        AttemptResult.Kind.BORDER_LEFT, false, "Border " + route.borderId() + " left the snapshot", 0));
            }
            if (!tlsMatches(route.endpoint())) {
                return Mono.just(AttemptResult.failed(
                        AttemptResult.Kind.BORDER_UNVERIFIED,
                        false,
                        tls.isPresent()
                                ? "refusing plaintext endpoint " + route.endpoint() + " (mutual TLS is configured)"
                                : "cannot verify https endpoint " + route.endpoint() + " without egress.trust.*",
                        0));
            }
            Client client = client(key);
            if (client == null) {
                return Mono.just(AttemptResult.failed(
                        AttemptResult.Kind.BORDER_LEFT, false, "Border " + route.borderId() + " left the snapshot", 0));
            }
            client.started();
            // The doubt ends by the PING timeout at the latest; the bound only guards against a lost signal.
            return client.watch()
                    .settled()
                    .timeout(properties.pingTimeout().multipliedBy(2), Mono.just(Boolean.FALSE))
                    .flatMap(alive -> alive ? send(client, body, deadline, start) : Mono.just(silent(start)))
                    .timeout(properties.attemptTimeout())
                    .onErrorResume(e -> Mono.just(CallFailures.classify(e, millisSince(start))))
                    .doFinally(signal -> client.ended());
        });
    }

    private Mono<AttemptResult> send(Client client, byte[] body, ForwardDeadline deadline, long start) {
        return Mono.deferContextual(context -> {
            Map<String, String> traceHeaders = trace.of(context);
            return client.http()
                    .headers(h -> {
                        h.set(ForwardDeadline.HEADER, deadline.headerValue());
                        traceHeaders.forEach(h::set);
                    })
                    .post()
                    .uri(client.egressUrl())
                    .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)))
                    .response((response, content) -> BorderAnswer.read(response, content, maxAnswerBytes)
                            .map(bytes -> BorderAnswer.classify(
                                    json, response.status().code(), bytes, millisSince(start))))
                    .next();
        });
    }

    /**
     * Opens a tunnel through a Border ({@link TunnelCall}): one stream on the Border's pooled link, with the
     * identity checks and the PING watch of a forward. The connect phase (until the Border's 200) is bounded by
     * {@code connectTimeout}; after it, nothing bounds the stream here (the proxy's idle and lifetime limits do).
     * Never fails: a refusal, a failed connect or a broken link is the result; a tunnel that came up ends as
     * {@code DELIVERED} whatever ended it.
     *
     * @param route          the route (Border and source IP)
     * @param target         the target
     * @param deadline       the connect's deadline, sent to the Border
     * @param connectTimeout how long to wait for the Border's answer
     * @param fromSender     the sender's bytes for this attempt; subscribed once the tunnel is up
     * @param established    called once with the target's bytes when the Border answered 200; its result ends
     *                       when the tunnel does
     * @return the attempt's result, once refused or once the tunnel ended
     */
    Mono<AttemptResult> tunnel(
            Route route,
            TunnelCall target,
            ForwardDeadline deadline,
            Duration connectTimeout,
            Flux<ByteBuf> fromSender,
            Function<Flux<ByteBuf>, Mono<Void>> established) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            Key key = new Key(route.endpoint(), route.borderId());
            Client client = tlsMatches(route.endpoint()) ? client(key) : null;
            if (client == null) {
                return Mono.just(AttemptResult.failed(
                        AttemptResult.Kind.BORDER_LEFT, false, "Border " + route.borderId() + " left the snapshot", 0));
            }
            client.started();
            AtomicBoolean up = new AtomicBoolean();
            Sinks.Empty<Void> opened = Sinks.empty();
            // An empty first chunk sends the request headers now: the sender writes nothing before it sees 200.
            Flux<ByteBuf> body = Flux.concat(
                    Mono.just(Unpooled.EMPTY_BUFFER), opened.asMono().thenMany(Flux.defer(() -> fromSender)));
            String base = client.egressUrl().substring(0, client.egressUrl().length() - EGRESS_PATH.length());
            Mono<AttemptResult> call = client.watch()
                    .settled()
                    .timeout(properties.pingTimeout().multipliedBy(2), Mono.just(Boolean.FALSE))
                    .flatMap(alive -> !alive
                            ? Mono.just(silent(start))
                            : client.http()
                                    .headers(h -> h.set(ForwardDeadline.HEADER, deadline.headerValue())
                                            .set(
                                                    TunnelCall.SOURCE_IP_HEADER,
                                                    route.ip().value())
                                            .set(TunnelCall.TARGET_HEADER, target.authority())
                                            .set(
                                                    HttpHeaderNames.CONTENT_TYPE,
                                                    HttpHeaderValues.APPLICATION_OCTET_STREAM))
                                    .post()
                                    .uri(base + TunnelCall.PATH)
                                    .send(body)
                                    .response((response, content) -> {
                                        if (response.status().code() != 200) {
                                            return BorderAnswer.read(response, content, maxAnswerBytes)
                                                    .map(bytes -> BorderAnswer.classify(
                                                            json,
                                                            response.status().code(),
                                                            bytes,
                                                            millisSince(start)));
                                        }
                                        up.set(true);
                                        opened.tryEmitEmpty();
                                        long latency = millisSince(start);
                                        // Retained: Reactor Netty releases each buffer after onNext, the proxy
                                        // writes it to the sender's socket later, which releases it.
                                        return established
                                                .apply(content.retain())
                                                .then(Mono.fromSupplier(() -> AttemptResult.delivered(null, latency)));
                                    })
                                    .next());
            return call.timeout(
                            Mono.delay(connectTimeout).filter(tick -> !up.get()).concatWith(Mono.never()))
                    .onErrorResume(e -> Mono.just(
                            up.get()
                                    ? AttemptResult.delivered(null, millisSince(start))
                                    : CallFailures.classify(e, millisSince(start))))
                    .doFinally(signal -> client.ended());
        });
    }

    /** The call waited while a PING was in doubt, and the connection was closed as silent: nothing was sent. */
    private AttemptResult silent(long start) {
        return AttemptResult.failed(
                AttemptResult.Kind.NOT_REACHED,
                false,
                "the link to the Border went silent (no answer to a PING within %d ms); nothing was sent"
                        .formatted(properties.pingTimeout().toMillis()),
                millisSince(start));
    }

    /**
     * Asks a Border to set the status of one of its IPs ({@code PUT /internal/v1/ips/{ip}}), over the
     * same pooled, authenticated link as deliveries. Never fails: a missing answer is in the reply.
     *
     * @param route    a route of the Border (its endpoint and id: the link checks that id, as for deliveries)
     * @param ip       the IP
     * @param body     the JSON body, e.g. {@code {"status":"DRAINING"}}
     * @param timeout  how long to wait for the answer
     * @return the reply
     */
    public Mono<OpsReply> changeIpStatus(Route route, String ip, byte[] body, Duration timeout) {
        return Mono.defer(() -> {
            if (!tlsMatches(route.endpoint())) {
                return Mono.just(
                        new OpsReply(0, new byte[0], "cannot verify the Border's endpoint " + route.endpoint()));
            }
            Client client = client(new Key(route.endpoint(), route.borderId()));
            if (client == null) {
                return Mono.just(new OpsReply(0, new byte[0], "the Border left the snapshot"));
            }
            String base = client.egressUrl().substring(0, client.egressUrl().length() - EGRESS_PATH.length());
            return client.http()
                    .put()
                    .uri(base + IPS_PATH + ip)
                    .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)))
                    .responseSingle((response, content) -> content.asByteArray()
                            .defaultIfEmpty(new byte[0])
                            .map(bytes -> new OpsReply(response.status().code(), bytes, null)))
                    .timeout(timeout)
                    .onErrorResume(e -> Mono.just(new OpsReply(
                            0,
                            new byte[0],
                            e instanceof TimeoutException
                                    ? "no answer from the Border within " + timeout
                                    : CallFailures.isConnectFailure(e)
                                            ? "cannot connect to the Border"
                                            : "exchange with the Border failed")));
        });
    }

    /** With trust, only https; without, only http (an https Border could not be verified). */
    private boolean tlsMatches(URI endpoint) {
        boolean https = "https".equals(endpoint.getScheme().toLowerCase(Locale.ROOT));
        return https == tls.isPresent();
    }

    private @Nullable Client client(Key key) {
        if (!live.contains(key)) {
            return null;
        }
        Client client = clients.computeIfAbsent(key, this::create);
        if (!live.contains(key)) {
            // Lost a race with retain(): do not leave a pool behind for a Border that just left.
            if (clients.remove(key, client)) {
                client.retire();
            }
            return null;
        }
        return client;
    }

    private Client create(Key key) {
        URI endpoint = key.endpoint();
        String base = endpoint.toString();
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        ConnectionProvider.Builder pool = ConnectionProvider.builder(
                        "border-" + key.borderId() + "-" + endpoint.getHost() + "-" + endpoint.getPort())
                .maxConnections(properties.maxConnectionsPerBorder())
                .pendingAcquireMaxCount(properties.pendingAcquireMax())
                .pendingAcquireTimeout(properties.attemptTimeout())
                .maxIdleTime(properties.connectionIdleTimeout())
                .evictInBackground(properties.connectionIdleTimeout());
        if (properties.borderHttp2()) {
            // HTTP/2: a call takes a stream, not a connection. A new connection opens only when every open one
            // carries max-streams-per-connection calls, so 1,000 slow calls need 10 connections, not 1,000.
            pool.allocationStrategy(Http2AllocationStrategy.builder()
                    .maxConnections(properties.maxConnectionsPerBorder())
                    .maxConcurrentStreams(properties.maxStreamsPerConnection())
                    .minConnections(1)
                    .build());
        }
        ConnectionProvider provider = pool.build();
        HttpClient http = HttpClient.create(provider)
                .protocol(
                        !properties.borderHttp2()
                                ? new HttpProtocol[] {HttpProtocol.HTTP11}
                                : tls.isPresent()
                                        ? new HttpProtocol[] {HttpProtocol.H2, HttpProtocol.HTTP11}
                                        : new HttpProtocol[] {HttpProtocol.H2C})
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        Math.min(Integer.MAX_VALUE, properties.connectTimeout().toMillis()))
                .headers(h -> h.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                        .set(HttpHeaderNames.ACCEPT, HttpHeaderValues.APPLICATION_JSON))
                // Per request, not per pool: a rotated token file is presented on pooled connections at once.
                .headersWhen(h -> Mono.just(token.authorization()
                        .map(t -> h.set(HttpHeaderNames.AUTHORIZATION, t))
                        .orElse(h)));
        LinkWatch watch = new LinkWatch();
        if (properties.borderHttp2()) {
            long interval = properties.pingInterval().toNanos();
            long timeout = properties.pingTimeout().toNanos();
            String border = key.borderId().value();
            http = http.doOnChannelInit((observer, channel, address) ->
                    channel.pipeline().addFirst("egress.liveness", new LinkLiveness(interval, timeout, watch, border)));
        }
        if (tls.isPresent()) {
            http = tls.get().secure(http, key.borderId(), properties.borderHttp2());
        }
        return new Client(http, provider, base + EGRESS_PATH, watch);
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    @Override
    public void close() {
        clients.values().forEach(c -> c.provider().disposeLater().block(Duration.ofSeconds(5)));
        clients.clear();
    }
}
