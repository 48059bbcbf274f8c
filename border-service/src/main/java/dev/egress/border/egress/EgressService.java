package dev.egress.border.egress;

import dev.egress.border.BorderException;
import dev.egress.border.InvalidRequestException;
import dev.egress.border.UnavailableException;
import dev.egress.border.ssrf.SsrfGuard;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.LogText;
import dev.egress.discovery.registry.RateLimitedLog;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.problem.CallKind;
import io.netty.buffer.Unpooled;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.timeout.ReadTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.http.client.PrematureCloseException;

/**
 * Performs App's forward calls: admits the request through the {@link EgressGate} (deadline, hosted, method,
 * headers and size, draining, ACTIVE, SSRF, concurrency — all before any connection), sends it from exactly the requested source IP, and reports the target's
 * answer. Failures are typed {@link BorderException}s that say whether the target may have been contacted.
 *
 * <p>Behind a NAT, App names the IP by its public address (the routing identity it announced) and
 * never by its bind address. Every check — hosted here, ACTIVE here, under its concurrency limit — is
 * made on that public address, exactly as without a NAT, and the socket is then bound to the bind
 * address this Border's own configuration pairs with it. A request naming a bind address is refused as
 * not hosted, so no request can choose the local address: the Border sends only from an address it
 * hosts for an IP that is ACTIVE. The answer reports the bind address as {@code sourceIp} (what the
 * socket really used); App accepts that only as the bind address announced for the route's IP.
 */
final class EgressService {

    private static final Logger log = LoggerFactory.getLogger(EgressService.class);
    private static final RateLimitedLog MALFORMED = new RateLimitedLog(log, Duration.ofSeconds(10));
    private static final RateLimitedLog UNEXPECTED = new RateLimitedLog(log, Duration.ofSeconds(10));
    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");
    private static final Set<String> BODYLESS = Set.of("GET", "HEAD", "OPTIONS", "DELETE");

    private final BoundClients clients;
    private final EgressGate gate;
    private final GateMetrics metrics;
    private final String borderId;
    private final int maxRequestBody;
    private final int maxResponseBody;
    private final Duration callTimeout;

    EgressService(
            BoundClients clients, EgressGate gate, GateMetrics metrics, String borderId, LimitsProperties limits) {
        this.clients = clients;
        this.gate = gate;
        this.metrics = metrics;
        this.borderId = borderId;
        this.maxRequestBody =
                (int) Math.min(Integer.MAX_VALUE, limits.maxRequestBody().toBytes());
        this.maxResponseBody =
                (int) Math.min(Integer.MAX_VALUE, limits.maxResponseBody().toBytes());
        this.callTimeout = limits.callTimeout();
    }

    /**
     * Forwards one call.
     *
     * @param request  App's request
     * @param deadline the attempt's deadline, or null (an App that sends none): a forward that arrives at or
     *                 after it is refused before anything else, and the call to the target ends by it
     * @return the target's answer, or an error signal carrying a {@link BorderException}
     */
    Mono<Forwarded> forward(ForwardRequest request, @Nullable ForwardDeadline deadline) {
        return Mono.defer(() -> {
            EgressGate.Admitted<Call> admitted = gate.admit(new EgressGate.Ask<>(
                    CallKind.FORWARD, request.sourceIp(), deadline, callTimeout, () -> shape(request)));
            EgressIp ip = admitted.ip();
            // The call holds a place from here: everything after admission runs inside holding(), which gives
            // the place back however the call ends, including a throw while the call is built.
            return admitted.permit()
                    .holding(() -> send(admitted, request))
                    .onErrorMap(e -> !(e instanceof BorderException), EgressService::classify)
                    .doOnError(BorderException.class, e -> {
                        gate.failed(CallKind.FORWARD, ip, e);
                        log.debug("Delivery {} from {} failed: {}", request.deliveryId(), ip, e.getMessage());
                    });
        });
    }

    private Mono<Forwarded> send(EgressGate.Admitted<Call> admitted, ForwardRequest request) {
        long started = System.nanoTime();
        EgressIp ip = admitted.ip();
        return send(clients.client(ip), admitted.call(), admitted.target(), admitted.timeLeft())
                .map(answer -> {
                    Duration latency = Duration.ofNanos(System.nanoTime() - started);
                    metrics.answered(ip.value(), answer.status, latency);
                    log.debug(
                            "Delivery {} from {} to {}: {}",
                            request.deliveryId(),
                            ip,
                            admitted.target().host(),
                            answer.status);
                    // The address the socket was bound to: behind a NAT App accepts it as this route's bind address.
                    return new Forwarded(
                            request.deliveryId(),
                            admitted.bind().value(),
                            borderId,
                            answer.status,
                            answer.headers,
                            answer.body.bytes(),
                            answer.body.truncated(),
                            latency.toMillis());
                });
    }

    /** The forward's own input: method, headers and body size (the gate runs it after the IP is known hosted). */
    private EgressGate.Checked<Call> shape(ForwardRequest request) {
        String method = request.method() == null ? "POST" : request.method().toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new InvalidRequestException(
                    "method: '%s' (expected: one of %s)".formatted(request.method(), METHODS));
        }
        Map<String, String> headers = OutboundHeaders.filter(request.headers());
        // The caller's bytes as App sliced them: sent unchanged, never decoded or re-encoded here.
        byte[] body = request.body() == null ? new byte[0] : request.body();
        if (body.length > maxRequestBody) {
            throw new PayloadTooLargeException(
                    "body: %d bytes (expected: <= %d)".formatted(body.length, maxRequestBody));
        }
        Call call = new Call(method, headers, body, request.body() != null || !BODYLESS.contains(method));
        return new EgressGate.Checked<>(call, request.url());
    }

    private Mono<Answer> send(HttpClient client, Call call, SsrfGuard.VettedUrl url, Duration bound) {
        return client.headers(h -> {
                    call.headers.forEach(h::set);
                    if (call.sendsBody) {
                        h.set("Content-Length", call.body.length);
                    }
                })
                .request(HttpMethod.valueOf(call.method))
                .uri(url.uri())
                .send(
                        call.sendsBody && call.body.length > 0
                                ? Mono.just(Unpooled.wrappedBuffer(call.body))
                                : Mono.empty())
                .response((response, body) -> body.asByteArray()
                        .reduce(new CappedBody(maxResponseBody), CappedBody::append)
                        .defaultIfEmpty(new CappedBody(maxResponseBody))
                        .map(captured -> new Answer(response.status().code(), headersOf(response), captured)))
                .next()
                // The connect and response timeouts bound silence, not duration: a target that trickles
                // its answer would hold the call and its concurrency slot for ever. Cancelling closes the
                // connection.
                // App's deadline shortens the bound: past it nobody waits for the answer.
                .timeout(
                        bound,
                        Mono.error(() -> TargetFailureException.timeout(
                                TargetFailureReason.RESPONSE_TIMEOUT,
                                "no complete answer from the target within " + bound,
                                true)));
    }

    private static Map<String, String> headersOf(HttpClientResponse response) {
        Map<String, String> out = new LinkedHashMap<>();
        response.responseHeaders().forEach(e -> out.putIfAbsent(e.getKey(), e.getValue()));
        return out;
    }

    /** Maps a transport failure to a typed problem; {@code targetContacted} errs on the side of "maybe". */
    static BorderException classify(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof BorderException b) {
                return b;
            }
        }
        String name = error.getClass().getSimpleName();
        if (name.equals("PoolAcquireTimeoutException") || name.equals("PoolAcquirePendingLimitException")) {
            return new UnavailableException("no pooled connection to the target became free in time");
        }
        String technical = LogText.escape(error.getClass().getSimpleName() + ": " + error.getMessage());
        if (error instanceof ConnectTimeoutException) {
            return TargetFailureException.timeout(
                    TargetFailureReason.CONNECTION_TIMEOUT, TargetFailureReason.CONNECTION_TIMEOUT.wording(), false);
        }
        if (error instanceof ConnectException) {
            // Netty's native transport words a refusal "finishConnect(..) failed with error(-111)".
            TargetFailureReason reason =
                    refused(error) ? TargetFailureReason.CONNECTION_REFUSED : TargetFailureReason.OTHER;
            return TargetFailureException.unreachable(reason, false, technical, error);
        }
        if (error instanceof ReadTimeoutException) {
            return TargetFailureException.timeout(
                    TargetFailureReason.RESPONSE_TIMEOUT, TargetFailureReason.RESPONSE_TIMEOUT.wording(), true);
        }
        if (error instanceof SSLException) {
            // A failed handshake sends no request bytes.
            return TargetFailureException.unreachable(
                    TargetFailureReason.TLS_HANDSHAKE_FAILED, false, technical, error);
        }
        if (isMalformedAnswer(error)) {
            // The target decides what it sends: its text is escaped, cut short, and logged at most once
            // per interval, without a stack trace.
            MALFORMED.warn("A target sent a malformed response: " + technical, null);
            return TargetFailureException.protocolError(technical);
        }
        if (error instanceof PrematureCloseException || error instanceof IOException) {
            return TargetFailureException.unreachable(TargetFailureReason.CONNECTION_BROKEN, true, technical, error);
        }
        UNEXPECTED.warn("Unexpected egress failure", error);
        return TargetFailureException.unreachable(TargetFailureReason.OTHER, true, technical, error);
    }

    private static boolean refused(Throwable error) {
        String message = String.valueOf(error.getMessage());
        return message.contains("refused") || message.contains("error(-111)");
    }

    /**
     * Whether Netty's HTTP decoder refused the target's answer: oversized status line or headers,
     * broken framing (chunk sizes, conflicting lengths), or a status line that is not HTTP. Netty
     * reports some of these as plain {@code IllegalArgumentException}s, so the decoder frame in the
     * stack trace is what tells them apart.
     */
    static boolean isMalformedAnswer(Throwable error) {
        if (error instanceof DecoderException) {
            return true;
        }
        if (!(error instanceof IllegalArgumentException)) {
            return false;
        }
        for (StackTraceElement frame : error.getStackTrace()) {
            if (frame.getClassName().startsWith("io.netty.handler.codec.http.HttpObjectDecoder")) {
                return true;
            }
        }
        return false;
    }

    private record Call(String method, Map<String, String> headers, byte[] body, boolean sendsBody) {}

    private record Answer(int status, Map<String, String> headers, CappedBody body) {}
}
