package dev.egress.app.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
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

/**
 * {@code egress.ops.port}: the operator page and API answer on their own port and only there; the API port
 * answers 404 for them, and the operator port answers 404 for everything else, so a network rule on ports
 * separates operators from the API's callers.
 */
class OpsPortIT extends AppITSupport {

    private static final String OPERATOR_TOKEN = "test-operator-token-0001";
    private static final int OPS_PORT = freePort();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @DynamicPropertySource
    static void opsPort(DynamicPropertyRegistry registry) {
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

    private HttpResponse<String> get(int target, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + target + path))
                .timeout(Duration.ofSeconds(30))
                .GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theOperatorApiAndPageAnswerOnTheirOwnPort() throws Exception {
        assertThat(get(OPS_PORT, "/ops/v1/fleet", OPERATOR_TOKEN).statusCode()).isEqualTo(200);
        assertThat(get(OPS_PORT, "/ops/v1/fleet", null).statusCode()).isEqualTo(401);
        HttpResponse<String> page = get(OPS_PORT, "/ops/", null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).isPresent();
    }

    @Test
    void theApiPortNoLongerServesThemAndTheOperatorPortServesNothingElse() throws Exception {
        assertThat(get(port, "/ops/v1/fleet", OPERATOR_TOKEN).statusCode()).isEqualTo(404);
        assertThat(get(port, "/ops/", null).statusCode()).isEqualTo(404);
        assertThat(get(OPS_PORT, "/v1/tenants/acme/egress", API_TOKEN).statusCode())
                .isEqualTo(404);
        assertThat(get(port, "/v1/tenants/acme/egress", API_TOKEN).statusCode()).isEqualTo(200);
    }
}
