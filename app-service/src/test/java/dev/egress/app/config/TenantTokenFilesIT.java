package dev.egress.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Tenant-bound tokens from a token file ({@code egress.security.tenant-api-token-files.<tenantId>}): read
 * again when the file changes, an idempotency key stays scoped to its token's digest when another token
 * leaves the file, and an emptied file revokes the tenant's tokens (401) loudly, with a gauge naming it.
 */
class TenantTokenFilesIT extends AppITSupport {

    private static final Path ACME_TOKENS;

    static {
        try {
            ACME_TOKENS = Files.createTempDirectory("tenant-tokens").resolve("acme-tokens");
            Files.writeString(ACME_TOKENS, "# acme's tokens\nacme-earlier-token\nacme-kept-token\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @DynamicPropertySource
    static void tokens(DynamicPropertyRegistry registry) {
        registry.add("egress.security.tenant-api-token-files.acme", ACME_TOKENS::toString);
    }

    private RecordingSink sink;
    private BorderDouble border;

    @BeforeEach
    void start() throws IOException {
        replaceTokens("# acme's tokens\nacme-earlier-token\nacme-kept-token\n");
        sink = RecordingSink.start();
        border = BorderDouble.start("border-token-files", INTERNAL_TOKEN, Duration.ofSeconds(5), "127.0.0.2");
        publish(border.announcement());
        await("both acme tokens accepted")
                .atMost(Duration.ofSeconds(10))
                .until(() -> status("acme-earlier-token") == 200 && status("acme-kept-token") == 200);
    }

    @AfterEach
    void stop() {
        publish();
        border.close();
        sink.close();
    }

    @Test
    void anIdempotencyKeyStaysScopedToItsTokenWhenAnEarlierTokenLeavesTheFile() throws IOException {
        deliverWithKey("acme-kept-token", "order-1")
                .expectStatus()
                .isOk()
                .expectHeader()
                .doesNotExist("Idempotent-Replayed")
                .expectBody()
                .returnResult();

        replaceTokens("acme-kept-token\n");
        await("the earlier token dropped")
                .atMost(Duration.ofSeconds(10))
                .until(() -> status("acme-earlier-token") == 401);

        // Scoped by position, the kept token would have moved from the second place to the first and the
        // repeat would have been sent again.
        deliverWithKey("acme-kept-token", "order-1")
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("Idempotent-Replayed", "true")
                .expectBody()
                .returnResult();
        assertThat(sink.received()).as("delivered once").hasSize(1);
    }

    @Test
    void anEmptiedFileRevokesTheTenantsTokensAndTheGaugeNamesTheFile() throws IOException {
        assertThat(revokedGauge()).contains(" 0.0");

        replaceTokens("# acme revoked after a leak\n");

        await("acme's tokens refused").atMost(Duration.ofSeconds(10)).until(() -> status("acme-kept-token") == 401);
        assertThat(status("acme-earlier-token")).isEqualTo(401);
        assertThat(revokedGauge()).contains(" 1.0");
        client().get().uri("/v1/tenants/acme/egress").exchange().expectStatus().isOk();
    }

    /** The status of acme's egress view read with a token; the body is drained. */
    private int status(String token) {
        return as(token)
                .get()
                .uri("/v1/tenants/acme/egress")
                .exchange()
                .returnResult(byte[].class)
                .getStatus()
                .value();
    }

    private String revokedGauge() {
        String scrape = WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .build()
                .get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        return scrape.lines()
                .filter(line -> line.startsWith("egress_security_token_file_revoked{")
                        && line.contains("file=\"" + ACME_TOKENS + "\"")
                        && line.contains("property=\"egress.security.tenant-api-token-files.acme\""))
                .findFirst()
                .orElse("(no gauge for " + ACME_TOKENS + ")");
    }

    private WebTestClient as(String token) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60))
                .defaultHeader("Authorization", "Bearer " + token)
                .build();
    }

    private WebTestClient.ResponseSpec deliverWithKey(String token, String key) {
        return as(token)
                .post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .header("Idempotency-Key", key)
                .bodyValue(Map.of("tenantId", "acme", "url", sink.baseUri() + "/hook", "payload", Map.of("n", 1)))
                .exchange();
    }

    /** Swaps the file atomically, as kubelet swaps a Secret volume's files. */
    private static void replaceTokens(String content) throws IOException {
        Path tmp = Files.writeString(ACME_TOKENS.resolveSibling("acme-tokens.tmp"), content);
        Files.move(tmp, ACME_TOKENS, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
