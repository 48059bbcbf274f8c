package dev.egress.discovery.web.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;

/**
 * A webhook target for tests: a real HTTP server on 127.0.0.1, port 0, that records every request with
 * the peer address it came from — the ground truth for "which source IP did this leave from".
 */
public final class RecordingSink implements AutoCloseable {

    /**
     * One request as the sink saw it.
     *
     * @param peer    the client's source address (the egress IP under test)
     * @param method  HTTP method
     * @param path    path and query
     * @param headers request headers (lower-case names, first value)
     * @param body    request body as UTF-8
     * @param bytes   request body exactly as received
     */
    public record Received(
            InetAddress peer, String method, String path, Map<String, String> headers, String body, byte[] bytes) {

        /**
         * A request recorded elsewhere as text (a receiver in another process): its bytes are the text's UTF-8.
         *
         * @param peer    the client's source address
         * @param method  HTTP method
         * @param path    path and query
         * @param headers request headers
         * @param body    request body as UTF-8
         */
        public Received(InetAddress peer, String method, String path, Map<String, String> headers, String body) {
            this(peer, method, path, headers, body, body.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * What the sink answers.
     *
     * @param status  HTTP status
     * @param body    response body
     * @param delay   wait before answering
     * @param headers extra response headers
     */
    public record Reply(int status, String body, Duration delay, Map<String, String> headers) {

        /**
         * A plain 200 with a small JSON body.
         *
         * @return the reply
         */
        public static Reply ok() {
            return new Reply(200, "{\"ok\":true}", Duration.ZERO, Map.of("Content-Type", "application/json"));
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "recording-sink");
        t.setDaemon(true);
        return t;
    });
    // A slow reply is answered later from here, so that no handler thread sleeps through the delay.
    private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "recording-sink-delay");
        t.setDaemon(true);
        return t;
    });
    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    private final AtomicReference<Reply> reply = new AtomicReference<>(Reply.ok());

    private RecordingSink(HttpServer server) {
        this.server = server;
    }

    private String scheme() {
        return server instanceof HttpsServer ? "https" : "http";
    }

    /**
     * Starts a sink on 127.0.0.1 and an ephemeral port.
     *
     * @return the running sink
     * @throws IOException if the port cannot be bound
     */
    public static RecordingSink start() throws IOException {
        return serve(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256));
    }

    /**
     * As {@link #start()}, for a test class's static field closed by JUnit after its last test:
     * {@code @AutoClose static final RecordingSink sink = RecordingSink.started();}.
     *
     * @return the running sink
     * @throws UncheckedIOException if the port cannot be bound
     */
    public static RecordingSink started() {
        try {
            return start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts an https sink on 127.0.0.1 and an ephemeral port.
     *
     * @param tls the server's TLS context (its key and certificate)
     * @return the running sink
     * @throws IOException if the port cannot be bound
     */
    public static RecordingSink startHttps(SSLContext tls) throws IOException {
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        return serve(server);
    }

    private static RecordingSink serve(HttpServer server) {
        RecordingSink sink = new RecordingSink(server);
        server.createContext("/", sink::handle);
        server.setExecutor(sink.executor);
        server.start();
        return sink;
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] bytes;
        try (InputStream in = exchange.getRequestBody()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            exchange.close();
            throw e;
        }
        Map<String, String> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.get(0)));
        received.add(new Received(
                exchange.getRemoteAddress().getAddress(),
                exchange.getRequestMethod(),
                exchange.getRequestURI().toString(),
                Map.copyOf(headers),
                new String(bytes, StandardCharsets.UTF_8),
                bytes));
        Reply r = reply.get();
        if (r.delay().isZero()) {
            answer(exchange, r);
        } else {
            // Simulates a slow target: the answer goes out after the delay.
            later.schedule(() -> answerQuietly(exchange, r), r.delay().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static void answerQuietly(HttpExchange exchange, Reply r) {
        try {
            answer(exchange, r);
        } catch (IOException e) {
            // The caller gave up before the delayed answer: nothing to deliver it to.
        }
    }

    private static void answer(HttpExchange exchange, Reply r) throws IOException {
        try (exchange) {
            r.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] bytes = r.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(r.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    /**
     * Changes what the sink answers from now on.
     *
     * @param next the reply
     */
    public void reply(Reply next) {
        reply.set(next);
    }

    /**
     * The sink's base URL.
     *
     * @return e.g. {@code http://127.0.0.1:34567} ({@code https://} for an https sink)
     */
    public URI baseUri() {
        return URI.create(scheme() + "://127.0.0.1:" + server.getAddress().getPort());
    }

    /**
     * The sink's port.
     *
     * @return the port
     */
    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * Everything received so far, in arrival order.
     *
     * @return a copy
     */
    public List<Received> received() {
        return List.copyOf(received);
    }

    /** Forgets what was received. */
    public void clear() {
        received.clear();
    }

    @Override
    public void close() {
        server.stop(0);
        later.shutdownNow();
        executor.shutdownNow();
    }
}
