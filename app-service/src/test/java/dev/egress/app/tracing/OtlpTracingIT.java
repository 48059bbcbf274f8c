package dev.egress.app.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.egress.app.support.AppITSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Spans leave App over OTLP/HTTP once an endpoint is configured: a request to App reaches a receiver on
 * loopback (a plain HTTP server this test runs) as a protobuf export on {@code /v1/traces} naming the
 * service. Without an endpoint no exporter exists at all (Spring Boot's OTLP auto-configuration is conditional on
 * it), so tracing exports nothing by default; web-kit's {@code OtelEnvironmentTest} covers the OTEL_* variables.
 */
class OtlpTracingIT extends AppITSupport {

    /** One OTLP export as the receiver saw it. */
    record Export(String method, String path, String contentType, byte[] body) {}

    private static final List<Export> EXPORTS = new CopyOnWriteArrayList<>();
    private static final HttpServer RECEIVER = receiver();

    private static HttpServer receiver() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                byte[] body = exchange.getRequestBody().readAllBytes();
                EXPORTS.add(new Export(
                        exchange.getRequestMethod(),
                        exchange.getRequestURI().getPath(),
                        exchange.getRequestHeaders().getFirst("Content-Type"),
                        body));
                // An empty ExportTraceServiceResponse: full success.
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @DynamicPropertySource
    static void otlp(DynamicPropertyRegistry registry) {
        registry.add(
                "management.opentelemetry.tracing.export.otlp.endpoint",
                () -> "http://127.0.0.1:" + RECEIVER.getAddress().getPort() + "/v1/traces");
        registry.add("management.tracing.sampling.probability", () -> "1.0");
    }

    @AfterAll
    static void stopReceiver() {
        RECEIVER.stop(0);
    }

    @Test
    void aRequestsSpanReachesTheOtlpReceiver() {
        client().get().uri("/v1/egress/ips").exchange().expectStatus().isOk();

        await().atMost(Duration.ofSeconds(30)).until(() -> !EXPORTS.isEmpty());
        Export export = EXPORTS.get(0);
        assertThat(export.method()).isEqualTo("POST");
        assertThat(export.path()).isEqualTo("/v1/traces");
        assertThat(export.contentType()).isEqualTo("application/x-protobuf");
        // The protobuf carries the resource's service.name and the server span's route as strings.
        String bytes = new String(export.body(), StandardCharsets.ISO_8859_1);
        assertThat(bytes).contains("service.name").contains("app-service").contains("/v1/egress/ips");
    }
}
