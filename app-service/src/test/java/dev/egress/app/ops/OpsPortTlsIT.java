package dev.egress.app.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.app.support.AppITSupport;
import dev.egress.discovery.trust.testing.TestPki;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The operator port serves TLS from the API port's bundle ({@code server.ssl.bundle}), never plain http. */
class OpsPortTlsIT extends AppITSupport {

    private static final String OPERATOR_TOKEN = "test-operator-token-0002";
    private static final TestPki PKI = TestPki.create("app-ops-tls");
    private static final TestPki.Issued SERVER = PKI.appServer("app-ops-tls");
    private static final int OPS_PORT = freePort();

    @DynamicPropertySource
    static void tls(DynamicPropertyRegistry registry) {
        registry.add("server.ssl.bundle", () -> "app-server");
        registry.add("spring.ssl.bundle.pem.app-server.keystore.certificate", () -> "file:" + SERVER.certificate());
        registry.add("spring.ssl.bundle.pem.app-server.keystore.private-key", () -> "file:" + SERVER.privateKey());
        registry.add("egress.ops.port", () -> OPS_PORT);
        registry.add("egress.security.operator-token", () -> OPERATOR_TOKEN);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpRequest fleet(String scheme) {
        return HttpRequest.newBuilder(URI.create(scheme + "://127.0.0.1:" + OPS_PORT + "/ops/v1/fleet"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + OPERATOR_TOKEN)
                .GET()
                .build();
    }

    @Test
    void theOperatorPortServesTlsWithTheApisCertificate() throws Exception {
        HttpClient https = HttpClient.newBuilder()
                .sslContext(TestPki.context(null, PKI.caPem()))
                .connectTimeout(Duration.ofSeconds(10))
                .build();

        HttpResponse<String> response = https.send(fleet("https"), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.sslSession()).isPresent();
    }

    @Test
    void refusesPlainHttpOnTheOperatorPort() {
        HttpClient plain = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .version(HttpClient.Version.HTTP_1_1)
                .build();

        assertThatThrownBy(() -> plain.send(fleet("http"), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }
}
