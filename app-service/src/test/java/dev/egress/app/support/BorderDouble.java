package dev.egress.app.support;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.web.forward.BorderPaths;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.ForwardFrame;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.forward.IpRelease;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.ydb.coordination.testing.ListenPorts;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.resources.ConnectionProvider;
import tools.jackson.databind.json.JsonMapper;

/**
 * TEST DOUBLE of the Border contract ({@code POST /internal/v1/egress}), NOT the real border-service:
 * a minimal real HTTP server on 127.0.0.1:0 that checks the internal token, refuses IPs it does not
 * host (404) or that are not ACTIVE (409, {@code targetContacted:false}), and forwards from a socket
 * bound to the requested source IP, so that a {@code RecordingSink} sees the true egress address. It speaks
 * both forms of the call (raw {@link ForwardFrame} and JSON) and answers in the form asked,
 * or refuses the raw one as an older Border does ({@link #refuseRawForm}), and takes an operator's move
 * ({@code PUT /internal/v1/ips/{ip}/release}: a released IP is announced {@code released}).
 * Failures can be injected with {@link #failWith}.
 */
public final class BorderDouble implements AutoCloseable {

    /**
     * An injected problem answer.
     *
     * @param status          HTTP status
     * @param slug            problem slug
     * @param targetContacted the flag App's retry rule reads
     */
    public record Failure(int status, String slug, boolean targetContacted) {}

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final BorderId id;
    private final String token;
    private final Map<EgressIp, IpStatus> ips = new ConcurrentHashMap<>();
    private final Map<EgressIp, Boolean> released = new ConcurrentHashMap<>();
    private final Map<EgressIp, HttpClient> bound = new ConcurrentHashMap<>();
    private final ConnectionProvider provider = ConnectionProvider.create("border-double", 64);
    private final AtomicReference<Failure> failure = new AtomicReference<>();
    private final AtomicReference<String> reportedSourceIp = new AtomicReference<>();
    private final AtomicInteger calls = new AtomicInteger();
    private volatile String lastDeadline;
    private volatile String lastTraceparent;
    private volatile String lastContentType;
    private volatile byte[] lastBody;
    private volatile boolean jsonOnly;
    private final AtomicInteger openConnections = new AtomicInteger();
    private final Map<EgressIp, AtomicInteger> inFlightPerIp = new ConcurrentHashMap<>();
    private volatile int limitPerIp = Integer.MAX_VALUE;
    private final AtomicLong generation = new AtomicLong();
    private final Duration targetTimeout;
    private final DisposableServer server;

    private BorderDouble(String id, String token, Duration targetTimeout, List<EgressIp> hosted) {
        this.id = BorderId.of(id);
        this.token = token;
        this.targetTimeout = targetTimeout;
        for (EgressIp ip : hosted) {
            ips.put(ip, IpStatus.ACTIVE);
            bound.put(
                    ip,
                    HttpClient.create(provider)
                            .bindAddress(() -> new InetSocketAddress(ip.toInetAddress(), 0))
                            .responseTimeout(targetTimeout));
        }
        // HTTP/1.1 and h2c side by side, as the real Border serves in insecure-local mode (App speaks h2c to it).
        this.server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .protocol(HttpProtocol.HTTP11, HttpProtocol.H2C)
                // TCP connections, not HTTP/2 streams (doOnConnection would see each stream).
                .doOnChannelInit((observer, channel, remote) -> {
                    openConnections.incrementAndGet();
                    channel.closeFuture().addListener(f -> openConnections.decrementAndGet());
                })
                .route(routes -> routes.post("/internal/v1/egress", (request, response) -> {
                            calls.incrementAndGet();
                            lastDeadline = request.requestHeaders().get(ForwardDeadline.HEADER);
                            lastTraceparent = request.requestHeaders().get("traceparent");
                            if (!("Bearer " + token)
                                    .equals(request.requestHeaders().get("Authorization"))) {
                                return problem(response, 401, ProblemType.UNAUTHORIZED.slug(), false);
                            }
                            String type =
                                    String.valueOf(request.requestHeaders().get("Content-Type"));
                            lastContentType = type;
                            boolean raw = type.startsWith(ForwardFrame.MEDIA_TYPE);
                            if (raw && jsonOnly) {
                                // An older Border's content negotiation: 415 before anything is read or sent.
                                return response.status(415).send();
                            }
                            return request.receive()
                                    .aggregate()
                                    .asByteArray()
                                    .defaultIfEmpty(new byte[0])
                                    .flatMap(bytes -> handle(
                                            raw
                                                    ? ForwardFrame.readRequest(JSON, ByteBuffer.wrap(bytes))
                                                    : JSON.readValue(bytes, ForwardRequest.class),
                                            raw,
                                            response))
                                    .then();
                        })
                        // An operator's move through App: the real Border stores the release, then announces it.
                        .put(BorderPaths.IP_RELEASE, (request, response) -> {
                            if (!("Bearer " + token)
                                    .equals(request.requestHeaders().get("Authorization"))) {
                                return problem(response, 401, ProblemType.UNAUTHORIZED.slug(), false);
                            }
                            EgressIp ip = EgressIp.of(String.valueOf(request.param("ip")));
                            if (!ips.containsKey(ip)) {
                                return problem(response, 404, ProblemType.IP_NOT_HOSTED.slug(), false);
                            }
                            return request.receive().aggregate().asByteArray().flatMap(bytes -> {
                                IpRelease release = JSON.readValue(bytes, IpRelease.class);
                                released.put(ip, Boolean.TRUE.equals(release.released()));
                                return response.status(200)
                                        .header("Content-Type", "application/json")
                                        .sendByteArray(Mono.just(JSON.writeValueAsBytes(
                                                Map.of("ip", ip.value(), "released", released.get(ip)))))
                                        .then();
                            });
                        }))
                .bindNow();
    }

    /**
     * Starts a double hosting the given IPs, all ACTIVE.
     *
     * @param id            the Border id
     * @param token         the internal token it accepts
     * @param targetTimeout how long it waits for the target before answering 504
     * @param ips           hosted IPs (127.0.0.2–127.0.0.9 in tests)
     * @return the running double
     */
    public static BorderDouble start(String id, String token, Duration targetTimeout, String... ips) {
        return new BorderDouble(
                id, token, targetTimeout, Arrays.stream(ips).map(EgressIp::of).toList());
    }

    private Mono<Void> handle(ForwardRequest forward, boolean raw, HttpServerResponse response) {
        EgressIp ip = EgressIp.of(forward.sourceIp());
        IpStatus status = ips.get(ip);
        if (status == null) {
            return problem(response, 404, ProblemType.IP_NOT_HOSTED.slug(), false);
        }
        if (status != IpStatus.ACTIVE) {
            return problem(response, 409, ProblemType.IP_NOT_ACTIVE.slug(), false);
        }
        Failure injected = failure.get();
        if (injected != null) {
            return problem(response, injected.status(), injected.slug(), injected.targetContacted());
        }
        // The real Border's egress.limits.max-concurrency-per-ip: one more answers 429, nothing sent.
        AtomicInteger inFlight = inFlightPerIp.computeIfAbsent(ip, k -> new AtomicInteger());
        if (inFlight.incrementAndGet() > limitPerIp) {
            inFlight.decrementAndGet();
            return problem(response, 429, ProblemType.TOO_MANY_REQUESTS.slug(), false);
        }
        lastBody = forward.body();
        return forward(forward, raw, ip, response).doFinally(signal -> inFlight.decrementAndGet());
    }

    private Mono<Void> forward(ForwardRequest forward, boolean raw, EgressIp ip, HttpServerResponse response) {
        long start = System.nanoTime();
        return bound.get(ip)
                .headers(h -> forward.headers().forEach(h::set))
                .request(HttpMethod.valueOf(forward.method()))
                .uri(forward.url())
                .send(forward.body() == null ? Mono.empty() : Mono.just(Unpooled.wrappedBuffer(forward.body())))
                .responseSingle((res, body) -> body.asString(StandardCharsets.UTF_8)
                        .defaultIfEmpty("")
                        .map(text -> {
                            Map<String, String> headers = new LinkedHashMap<>();
                            res.responseHeaders().forEach(e -> headers.putIfAbsent(e.getKey(), e.getValue()));
                            String reported = reportedSourceIp.get();
                            return new ForwardResponse(
                                    forward.deliveryId(),
                                    reported != null ? reported : ip.value(),
                                    id.value(),
                                    res.status().code(),
                                    headers,
                                    text,
                                    false,
                                    (System.nanoTime() - start) / 1_000_000);
                        }))
                .flatMap(answer -> response.status(HttpResponseStatus.OK)
                        .header("Content-Type", raw ? ForwardFrame.MEDIA_TYPE : "application/json")
                        .sendByteArray(Mono.just(raw ? frame(answer) : JSON.writeValueAsBytes(answer)))
                        .then())
                .onErrorResume(e -> isTimeout(e)
                        ? problem(response, 504, ProblemType.TARGET_TIMEOUT.slug(), true)
                        : problem(response, 502, ProblemType.TARGET_UNREACHABLE.slug(), false));
    }

    private static byte[] frame(ForwardResponse answer) {
        byte[] head = ForwardFrame.responseHead(JSON, answer);
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        byte[] frame = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, frame, head.length, body.length);
        return frame;
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException || t.getClass().getSimpleName().contains("Timeout")) {
                return true;
            }
        }
        return false;
    }

    private static Mono<Void> problem(HttpServerResponse response, int status, String slug, boolean contacted) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", ProblemType.TYPE_PREFIX + slug);
        body.put("status", status);
        body.put("detail", "injected by the Border test double");
        body.put(Problem.TARGET_CONTACTED, contacted);
        return response.status(status)
                .header("Content-Type", "application/problem+json")
                .sendByteArray(Mono.just(JSON.writeValueAsBytes(body)))
                .then();
    }

    /**
     * Answers every forward with this problem from now on (null: behave normally).
     *
     * @param next the failure
     */
    public void failWith(Failure next) {
        failure.set(next);
    }

    /**
     * Refuses the raw form with 415 from now on, as a Border older than it does (true), or accepts both (false).
     *
     * @param refuse whether to refuse it
     */
    public void refuseRawForm(boolean refuse) {
        jsonOnly = refuse;
    }

    /**
     * The {@code Content-Type} of the last forward call, as received.
     *
     * @return the header's value ("null" when none came)
     */
    public String lastContentType() {
        return lastContentType;
    }

    /**
     * The body of the last forward call that got past the double's checks, as the double decoded it.
     *
     * @return the bytes, or null for none
     */
    public byte[] lastBody() {
        return lastBody;
    }

    /**
     * Reports this source IP in every answer from now on, whatever IP really sent (null: the truth).
     *
     * @param ip the IP to report
     */
    public void reportSourceIp(String ip) {
        reportedSourceIp.set(ip);
    }

    /**
     * Limits egress calls in flight per IP, like the real Border's {@code egress.limits.max-concurrency-per-ip}.
     *
     * @param limit calls per IP; one more answers 429 {@code too-many-requests} with {@code targetContacted:false}
     */
    public void limitPerIp(int limit) {
        limitPerIp = limit;
    }

    /**
     * Changes an IP's status as the Border sees it (the announcement must be republished separately).
     *
     * @param ip     a hosted IP
     * @param status the status
     */
    public void setStatus(String ip, IpStatus status) {
        ips.put(EgressIp.of(ip), status);
    }

    /**
     * The Border's current announcement.
     *
     * @return the announcement, published now
     */
    public Announcement announcement() {
        List<AnnouncedIp> announced = ips.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> {
                    AnnouncedIp ip = new AnnouncedIp(e.getKey(), e.getValue());
                    return released.getOrDefault(e.getKey(), false) ? ip.withheld(AnnouncedIp.RELEASED) : ip;
                })
                .toList();
        return new Announcement(
                Announcement.CURRENT_VERSION, id, endpoint(), announced, Instant.now(), generation.incrementAndGet());
    }

    /**
     * The URL App uses.
     *
     * @return e.g. {@code http://127.0.0.1:40000}
     */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    /**
     * The {@code Egress-Deadline} header of the last forward call, as received.
     *
     * @return the header's value, or null when none came
     */
    public String lastDeadline() {
        return lastDeadline;
    }

    /**
     * The W3C {@code traceparent} header of the last forward call, as received.
     *
     * @return the header value, or null
     */
    public String lastTraceparent() {
        return lastTraceparent;
    }

    /**
     * Forward calls received (any outcome).
     *
     * @return the count
     */
    public int calls() {
        return calls.get();
    }

    /**
     * TCP connections from App currently open.
     *
     * @return the count
     */
    public int openConnections() {
        return openConnections.get();
    }

    /**
     * The Border id.
     *
     * @return the id
     */
    public BorderId id() {
        return id;
    }

    /**
     * An announcement for a Border that refuses connections: its endpoint is a loopback port nobody
     * listens on.
     *
     * @param id  the Border id
     * @param ips its IPs, all ACTIVE
     * @return the announcement
     * @throws java.io.IOException if no free port can be found
     */
    public static Announcement unreachable(String id, String... ips) throws IOException {
        int port = ListenPorts.nothingListening();
        return Announcement.initial(
                BorderId.of(id),
                URI.create("http://127.0.0.1:" + port),
                Arrays.stream(ips)
                        .map(ip -> new AnnouncedIp(EgressIp.of(ip), IpStatus.ACTIVE))
                        .toList(),
                Instant.now());
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
        provider.disposeLater().block(Duration.ofSeconds(5));
    }
}
