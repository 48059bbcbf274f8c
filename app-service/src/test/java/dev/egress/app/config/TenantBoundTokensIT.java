package dev.egress.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.web.testing.Exchanges;
import dev.egress.discovery.web.testing.RecordingSink;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.HeaderAssertions;
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

    /** A GET that must answer with the status; the body is read so the pooled connection is released. */
    private void expectGet(String token, String uri, HttpStatus status) {
        Exchanges.expectGet(as(token), uri, status);
    }

    private void expectTenantForbiddenProblem(String token, String uri) {
        as(token)
                .get()
                .uri(uri)
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:tenant-forbidden");
    }

    /** Sends acme's delivery with Idempotency-Key key-1 and expects it accepted, replayed or fresh. */
    private void deliverKeyOne(String token, boolean replayed) {
        HeaderAssertions header =
                deliver(token, "acme", "key-1").expectStatus().isOk().expectHeader();
        WebTestClient.ResponseSpec response = replayed
                ? header.valueEquals("Idempotent-Replayed", "true")
                : header.doesNotExist("Idempotent-Replayed");
        response.expectBody().returnResult();
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
        expectTenantForbiddenProblem(ACME_ONLY, "/v1/tenants/beta/egress");
        // Forbidden, not 404: another tenant's existence is not revealed.
        expectGet(ACME_ONLY, "/v1/tenants/no-such-tenant/egress", HttpStatus.FORBIDDEN);
        expectTenantForbiddenProblem(ACME_ONLY, "/v1/egress/ips");
        expectGet(ACME_ONLY, "/actuator/metrics", HttpStatus.FORBIDDEN);
        expectGet(API_TOKEN, "/v1/tenants/beta/egress", HttpStatus.OK);
    }

    @Test
    void idempotencyKeysStayScopedPerToken() {
        deliverKeyOne(ACME_ONLY, false);
        deliverKeyOne(ACME_ONLY, true);
        deliverKeyOne("acme-second-token", false);
        deliverKeyOne(API_TOKEN, false);
        assertThat(sink.received()).hasSize(3);
    }
}
