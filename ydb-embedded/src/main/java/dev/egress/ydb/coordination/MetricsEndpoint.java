package dev.egress.ydb.coordination;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The node's HTTP side: {@code GET /metrics} (Prometheus text: sessions, transactions by outcome, rows and bytes
 * per table, log size, fsync time) and {@code GET /healthz} (200 while serving), for probes and scrapers.
 */
final class MetricsEndpoint implements AutoCloseable {

    private final HttpServer http;

    private MetricsEndpoint(HttpServer http) {
        this.http = http;
    }

    static MetricsEndpoint start(String host, int port, EmbeddedCoordinationNode node) {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 16);
            http.createContext("/metrics", ex -> reply(ex, 200, node.tables().metrics()));
            http.createContext("/healthz", ex -> reply(ex, 200, "ok\n"));
            http.start();
            return new MetricsEndpoint(http);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the metrics port " + host + ":" + port, e);
        }
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The port actually bound. */
    int port() {
        return http.getAddress().getPort();
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
