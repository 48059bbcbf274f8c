package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code Idempotency-Key} through the endpoint: a key takes a place only once its tenant is resolved and
 * stays only when the target was contacted; a replayed answer carries the body cut with its digest.
 */
class IdempotencyIT extends AppITSupport {

    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    IdempotencyStore store;

    @Autowired
    TenantPolicyStore tenants;

    private RecordingSink sink;
    private BorderDouble border;

    @BeforeEach
    void start() throws IOException {
        sink = RecordingSink.start();
        border = BorderDouble.start(
                "idem-" + SEQ.incrementAndGet(), INTERNAL_TOKEN, Duration.ofSeconds(5), "127.0.0.2", "127.0.0.8");
        publish(border.announcement());
    }

    @AfterEach
    void stop() {
        publish();
        border.close();
        sink.close();
    }

    private WebTestClient.ResponseSpec deliver(String tenant, String key, Object payload) {
        return client().post()
                .uri("/v1/deliveries")
                .header("Idempotency-Key", key)
                .bodyValue(Map.of("tenantId", tenant, "url", sink.baseUri() + "/hook", "payload", payload))
                .exchange();
    }

    private static void replaceTenants(String content) throws IOException {
        Path tmp = Files.writeString(tenantsFile().resolveSibling("tenants.yaml.tmp"), content);
        Files.move(tmp, tenantsFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Test
    void requestsForUnknownTenantsTakeNoPlaceAndEvictNothing() {
        deliver("acme", "kept-key", 1).expectStatus().isOk().expectBody().returnResult();
        long before = store.size();

        for (int i = 0; i < 50; i++) {
            deliver("nobody-" + i, "flood-" + i, 1)
                    .expectStatus()
                    .isNotFound()
                    .expectBody()
                    .returnResult();
        }

        assertThat(store.size()).isEqualTo(before);
        deliver("acme", "kept-key", 1)
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("Idempotent-Replayed", "true")
                .expectBody()
                .returnResult();
        assertThat(sink.received()).hasSize(1);
    }

    @Test
    void aRepeatIsAnsweredFromMemoryEvenWhileItsTenantHasNoEgress() {
        deliver("acme", "before-outage", 1).expectStatus().isOk().expectBody().returnResult();
        publish();

        deliver("acme", "before-outage", 1)
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("Idempotent-Replayed", "true")
                .expectBody()
                .returnResult();
        deliver("acme", "during-outage", 1)
                .expectStatus()
                .isEqualTo(503)
                .expectBody()
                .returnResult();
        assertThat(sink.received()).hasSize(1);
    }

    @Test
    void aKeyFirstUsedWithAnUnknownTenantIsNotBurnt() throws IOException {
        deliver("later-co", "early-key", 1)
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:unknown-tenant");
        try {
            replaceTenants(TENANTS + "  - id: later-co\n");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> tenants.current().tenant("later-co").isPresent());

            deliver("later-co", "early-key", 1)
                    .expectStatus()
                    .isOk()
                    .expectHeader()
                    .doesNotExist("Idempotent-Replayed")
                    .expectBody()
                    .jsonPath("$.tenantId")
                    .isEqualTo("later-co");
            assertThat(sink.received()).hasSize(1);
        } finally {
            replaceTenants(TENANTS);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> tenants.current().tenant("later-co").isEmpty());
        }
    }

    @Test
    void anOutcomeThatNeverReachedTheTargetIsNotRemembered() {
        border.failWith(new BorderDouble.Failure(403, "target-denied", false));
        deliver("acme", "denied-key", 1)
                .expectStatus()
                .isForbidden()
                .expectBody()
                .returnResult();
        border.failWith(new BorderDouble.Failure(503, "unavailable", false));
        deliver("acme", "denied-key", 1)
                .expectStatus()
                .isEqualTo(503)
                .expectBody()
                .returnResult();
        border.failWith(null);

        deliver("acme", "denied-key", 1)
                .expectStatus()
                .isOk()
                .expectHeader()
                .doesNotExist("Idempotent-Replayed")
                .expectBody()
                .jsonPath("$.response.status")
                .isEqualTo(200);
        assertThat(sink.received()).hasSize(1);
    }

    @Test
    void aTargetTimeoutIsRememberedAndReplayed() {
        sink.reply(new RecordingSink.Reply(200, "late", Duration.ofSeconds(8), Map.of()));
        deliver("acme", "timeout-key", 1)
                .expectStatus()
                .isEqualTo(504)
                .expectBody()
                .returnResult();
        sink.reply(RecordingSink.Reply.ok());

        deliver("acme", "timeout-key", 1)
                .expectStatus()
                .isEqualTo(504)
                .expectBody()
                .jsonPath("$.targetContacted")
                .isEqualTo(true);
        assertThat(sink.received()).hasSize(1);
    }

    @Test
    void aReplayedAnswerCarriesTheBodyCutWithTheDigestOfTheWholeBody() throws Exception {
        String body = "0123456789".repeat(1000);
        sink.reply(new RecordingSink.Reply(200, body, Duration.ZERO, Map.of("Content-Type", "text/plain")));

        JsonNode first = JSON.readTree(deliver("small-co", "long-key", 1)
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
        JsonNode replay = JSON.readTree(deliver("small-co", "long-key", 1)
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("Idempotent-Replayed", "true")
                .expectBody()
                .returnResult()
                .getResponseBody());

        assertThat(first.get("response").get("body").stringValue()).isEqualTo(body);
        assertThat(first.get("response").has("bodySha256")).isFalse();
        assertThat(replay.get("id")).isEqualTo(first.get("id"));
        assertThat(replay.get("response").get("status").intValue()).isEqualTo(200);
        assertThat(replay.get("response").get("body").stringValue()).isEqualTo(body.substring(0, 4096));
        assertThat(replay.get("response").get("bodyTruncated").booleanValue()).isTrue();
        assertThat(replay.get("response").get("bodySha256").stringValue())
                .isEqualTo(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8))));
        assertThat(replay.get("attempts")).isEqualTo(first.get("attempts"));
        assertThat(sink.received()).hasSize(1);
    }
}
