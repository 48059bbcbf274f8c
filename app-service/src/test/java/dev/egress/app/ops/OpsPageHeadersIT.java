package dev.egress.app.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The operator page carries its security headers on every path that serves it or any of its files, not
 * only on {@code /ops/}: the same page at {@code /ops/index.html} without its CSP would undo the policy.
 */
class OpsPageHeadersIT extends AppITSupport {

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(30))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @CsvSource({
        "/ops, 308",
        "/ops/, 200",
        "/ops/index.html, 200",
        "/ops/ops.js, 200",
        "/ops/ops.css, 200",
        "/ops/no-such-file.png, 404",
    })
    void everyPathOfThePageCarriesItsSecurityHeaders(String path, int status) throws Exception {
        HttpResponse<String> response = get(path);

        assertThat(response.statusCode()).as(path).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Security-Policy"))
                .as(path)
                .contains(OpsPageHeaders.CONTENT_SECURITY_POLICY);
        assertThat(response.headers().firstValue("X-Content-Type-Options"))
                .as(path)
                .contains("nosniff");
        assertThat(response.headers().firstValue("Referrer-Policy")).as(path).contains("no-referrer");
        assertThat(response.headers().firstValue("X-Frame-Options")).as(path).contains("DENY");
        assertThat(response.headers().firstValue("Cache-Control")).as(path).contains("no-store");
    }

    @Test
    void theIndexFileIsThePageItself() throws Exception {
        assertThat(get("/ops/index.html").body()).isEqualTo(get("/ops/").body()).contains("<html");
    }

    @Test
    void theOperatorApiAndOtherPathsAreLeftAlone() {
        assertThat(OpsPageHeaders.isPagePath("/ops/v1/fleet")).isFalse();
        assertThat(OpsPageHeaders.isPagePath("/ops/v1")).isFalse();
        assertThat(OpsPageHeaders.isPagePath("/v1/deliveries")).isFalse();
        assertThat(OpsPageHeaders.isPagePath("/opsx")).isFalse();
        assertThat(OpsPageHeaders.isPagePath("/ops/v10.js")).isTrue();
        assertThat(OpsPageHeaders.isPagePath("/ops")).isTrue();
    }
}
