package dev.egress.app.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.app.support.AppITSupport;
import dev.egress.discovery.trust.testing.TestPki;
import java.io.IOException;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * App's API, operator page and probes served over TLS from a Spring Boot SSL bundle ({@code server.ssl.bundle}),
 * called by the JDK's HttpClient that verifies the certificate and the host name.
 */
class ServerTlsIT extends AppITSupport {

    private static final TestPki PKI = TestPki.create("app-server-tls");
    private static final TestPki.Issued SERVER = PKI.appServer("app-tls");

    @DynamicPropertySource
    static void tls(DynamicPropertyRegistry registry) {
        registry.add("server.ssl.bundle", () -> "app-server");
        registry.add("spring.ssl.bundle.pem.app-server.keystore.certificate", () -> "file:" + SERVER.certificate());
        registry.add("spring.ssl.bundle.pem.app-server.keystore.private-key", () -> "file:" + SERVER.privateKey());
        registry.add("egress.server.request-header-timeout", () -> "2s");
        // A separate actuator port, as in the chart: it serves TLS from the same bundle.
        registry.add("management.server.port", () -> "0");
    }

    @LocalManagementPort
    int managementPort;

    private final HttpClient https = HttpClient.newBuilder()
            .sslContext(TestPki.context(null, PKI.caPem()))
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private HttpResponse<String> get(String url, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return https.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesTheApiTheOperatorPageAndTheProbesOverTls() throws Exception {
        HttpResponse<String> ips = get("https://127.0.0.1:" + port + "/v1/egress/ips", API_TOKEN);
        assertThat(ips.statusCode()).isEqualTo(200);
        assertThat(ips.sslSession()).isPresent();

        HttpResponse<String> page = get("https://127.0.0.1:" + port + "/ops/", null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).isPresent();

        assertThat(get("https://localhost:" + managementPort + "/actuator/health/liveness", null)
                        .statusCode())
                .isEqualTo(200);
        assertThat(get("https://127.0.0.1:" + port + "/v1/egress/ips", "not-a-token")
                        .statusCode())
                .isEqualTo(401);
    }

    @Test
    void closesATlsConnectionWhoseHeadersDoNotArriveInTime() throws Exception {
        try (SSLSocket socket = (SSLSocket)
                TestPki.context(null, PKI.caPem()).getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            socket.getOutputStream().write("GET /v1/egress/ips HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(US_ASCII));
            socket.getOutputStream().flush();
            socket.setSoTimeout(20_000);
            long start = System.nanoTime();
            // The header deadline (2 s) closes the connection: end of stream (or a reset), not the 20 s timeout.
            int read;
            try {
                read = socket.getInputStream().read();
            } catch (SocketException reset) {
                read = -1;
            }
            assertThat(read).isEqualTo(-1);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(9));
        }
    }

    @Test
    void refusesPlainHttpOnTheTlsPort() {
        HttpClient plain = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        assertThatThrownBy(() -> plain.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/egress/ips"))
                                .timeout(Duration.ofSeconds(30))
                                .header("Authorization", "Bearer " + API_TOKEN)
                                .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }
}
