package dev.egress.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.testing.RecordingSink;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/** A token bound to one tenant sends and reads only for that tenant; tokens for every tenant keep working. */
class TenantBoundTokensIT extends AppITSupport {

    static final String ACME_ONLY = "acme-only-token";

    @DynamicPropertySource
    static void tokens(DynamicPropertyRegistry registry) {
        registry.add("egress.security.tenant-api-tokens.acme", () -> ACME_ONLY + ",acme-second-token");
    }

    private RecordingSink sink;
    private BorderDouble border;

    @BeforeEach
    void start() throws Exception {
        sink = RecordingSink.start();
        border = BorderDouble.start("border-tenants", INTERNAL_TOKEN, Duration.ofSeconds(5), "127.0.0.2", "127.0.0.4");
        publish(border.announcement());
    }

    @AfterEach
    void stop() {
        publish();
        border.close();
        sink.close();
    }

    private WebTestClient as(String token) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60))
                .defaultHeader("Authorization", "Bearer " + token)
                .build();
    }

    private WebTestClient.ResponseSpec deliver(String token, String tenant, String key) {
        WebTestClient.RequestBodySpec request =
                as(token).post().uri("/v1/deliveries").contentType(MediaType.APPLICATION_JSON);
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return request.bodyValue(Map.of("tenantId", tenant, "url", sink.baseUri() + "/hook", "payload", Map.of("n", 1)))
                .exchange();
    }

    @Test
    void aTenantBoundTokenSendsForItsTenantOnly() {
        deliver(ACME_ONLY, "acme", null)
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.egressIp")
                .isEqualTo("127.0.0.2");
        int calls = border.calls();

        deliver(ACME_ONLY, "beta", null)
                .expectStatus()
                .isForbidden()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:tenant-forbidden")
                .jsonPath("$.detail")
                .value(detail -> assertThat((String) detail).contains("acme").doesNotContain(ACME_ONLY));
        deliver(ACME_ONLY, "no-such-tenant", null)
                .expectStatus()
                .isForbidden()
                .expectBody()
                .returnResult();

        assertThat(border.calls()).as("no Border call for a forbidden tenant").isEqualTo(calls);
        assertThat(sink.received()).hasSize(1);
    }

    @Test
    void tokensForEveryTenantKeepSendingForEveryTenant() {
        deliver(API_TOKEN, "acme", null).expectStatus().isOk().expectBody().returnResult();
        deliver(API_TOKEN, "beta", null)
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.egressIp")
                .isEqualTo("127.0.0.4");
        assertThat(sink.received()).hasSize(2);
    }

    @Test
    void aTenantBoundTokenReadsOnlyItsOwnTenantsEgressAndNotTheFleet() {
        as(ACME_ONLY)
                .get()
                .uri("/v1/tenants/acme/egress")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tenantId")
                .isEqualTo("acme");
        as(ACME_ONLY)
                .get()
                .uri("/v1/tenants/beta/egress")
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:tenant-forbidden");
        // Forbidden, not 404: another tenant's existence is not revealed.
        as(ACME_ONLY)
                .get()
                .uri("/v1/tenants/no-such-tenant/egress")
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .returnResult();
        as(ACME_ONLY)
                .get()
                .uri("/v1/egress/ips")
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:tenant-forbidden");
        as(ACME_ONLY)
                .get()
                .uri("/actuator/metrics")
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .returnResult();
        as(API_TOKEN)
                .get()
                .uri("/v1/tenants/beta/egress")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
    }

    @Test
    void idempotencyKeysStayScopedPerToken() {
        deliver(ACME_ONLY, "acme", "key-1")
                .expectStatus()
                .isOk()
                .expectHeader()
                .doesNotExist("Idempotent-Replayed")
                .expectBody()
                .returnResult();
        deliver(ACME_ONLY, "acme", "key-1")
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("Idempotent-Replayed", "true")
                .expectBody()
                .returnResult();
        deliver("acme-second-token", "acme", "key-1")
                .expectStatus()
                .isOk()
                .expectHeader()
                .doesNotExist("Idempotent-Replayed")
                .expectBody()
                .returnResult();
        deliver(API_TOKEN, "acme", "key-1")
                .expectStatus()
                .isOk()
                .expectHeader()
                .doesNotExist("Idempotent-Replayed")
                .expectBody()
                .returnResult();
        assertThat(sink.received()).hasSize(3);
    }
}
