package dev.egress.app.delivery.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.standardwebhooks.Webhook;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.NewDelivery;
import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.web.testing.RecordingSink;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Durable delivery end to end in one App: the real embedded YDB node (tables), a Border double that forwards from
 * the requested source IP, and loopback receivers. Short schedules ({@code 0s, 1s, 1s}, a tenant with a longer
 * one); everything converges under Awaitility.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DurableDeliveryIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SECRET = secret();
    private static final String BETA_TOKEN = "beta-only-token";
    private static final Path DIR;
    private static EmbeddedCoordinationNode node;

    static {
        try {
            DIR = Files.createTempDirectory("durable-delivery");
            Files.writeString(DIR.resolve("tenants.yaml"), """
                    sharedPool: [127.0.0.8]
                    tenants:
                      - id: acme
                        dedicatedIps: [127.0.0.2]
                        signing: true
                      - id: patient
                        dedicatedIps: [127.0.0.3]
                        retrySchedule: [0s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s, 1s]
                      - id: beta
                        dedicatedIps: [127.0.0.4]
                      - id: quiet
                    """);
            Files.writeString(DIR.resolve("secrets.yaml"), "acme: " + SECRET + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String secret() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws Exception {
        node = EmbeddedCoordinationNode.start(0);
        registry.add("egress.tenants.file", () -> DIR.resolve("tenants.yaml").toString());
        registry.add(
                "egress.signing.secrets-file", () -> DIR.resolve("secrets.yaml").toString());
        registry.add("egress.security.api-tokens", () -> AppITSupport.API_TOKEN);
        registry.add("egress.security.tenant-api-tokens.beta", () -> BETA_TOKEN);
        registry.add("egress.security.internal-token", () -> AppITSupport.INTERNAL_TOKEN);
        registry.add("egress.security.insecure-local", () -> "true");
        registry.add("egress.delivery.store.connection-string", node::connectionString);
        registry.add(
                "egress.delivery.store.table-prefix",
                () -> "it" + UUID.randomUUID().toString().substring(0, 8) + "_");
        registry.add("egress.delivery.retry.schedule", () -> "0s,1s,1s");
        // Few buckets: every poll claims each one in its own transaction.
        registry.add("egress.delivery.buckets.count", () -> "4");
        registry.add("egress.delivery.retry.jitter", () -> "0");
        registry.add("egress.delivery.retry.retry-after-floor", () -> "1s");
        registry.add("egress.delivery.poll-interval", () -> "100ms");
        registry.add("egress.delivery.lease", () -> "20s");
        registry.add("egress.delivery.attempt-timeout", () -> "4s");
        registry.add("egress.delivery.max-in-flight-per-destination", () -> "2");
    }

    @AfterAll
    static void stopNode() throws Exception {
        node.close();
    }

    @Autowired
    RoutingTable table;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DeliveryStore store;

    @LocalServerPort
    int port;

    private static BorderDouble border;
    private RecordingSink sink;

    @BeforeEach
    void start() throws IOException {
        if (border == null) {
            border = BorderDouble.start(
                    "b-1",
                    AppITSupport.INTERNAL_TOKEN,
                    Duration.ofSeconds(10),
                    "127.0.0.2",
                    "127.0.0.3",
                    "127.0.0.4",
                    "127.0.0.8");
        }
        publish();
        sink = RecordingSink.start();
    }

    @AfterEach
    void stop() {
        sink.close();
    }

    @AfterAll
    static void stopBorder() {
        if (border != null) {
            border.close();
            border = null;
        }
    }

    private void publish() {
        table.offer(RoutingSnapshot.fromAnnouncements(List.of(border.announcement()), Instant.now()));
    }

    private WebTestClient client(String token) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(30))
                .defaultHeader("Authorization", "Bearer " + token)
                .build();
    }

    private WebTestClient client() {
        return client(AppITSupport.API_TOKEN);
    }

    private String body(String tenant, String path) {
        return "{\"tenantId\":\"" + tenant + "\",\"url\":\"" + sink.baseUri() + path + "\",\"payload\":{\"n\": 1.10}}";
    }

    private EntityExchangeResult<byte[]> accept(String body, String key) {
        WebTestClient.RequestBodySpec post = client().post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .header("Prefer", "respond-async");
        if (key != null) {
            post.header("Idempotency-Key", key);
        }
        return post.bodyValue(body).exchange().expectBody().returnResult();
    }

    private String accepted(String tenant, String path) {
        EntityExchangeResult<byte[]> result = accept(body(tenant, path), null);
        assertThat(result.getStatus().value()).isEqualTo(202);
        return json(result.getResponseBody()).get("id").asString();
    }

    private JsonNode delivery(String id) {
        return json(client().get()
                .uri("/v1/deliveries/" + id)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
    }

    private JsonNode awaitStatus(String id, String status) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> delivery(id).get("status").asString().equals(status));
        return delivery(id);
    }

    private static JsonNode json(byte[] bytes) {
        return JSON.readTree(bytes);
    }

    private static Map<String, List<String>> listed(Map<String, String> headers) {
        Map<String, List<String>> all = new LinkedHashMap<>();
        headers.forEach((name, value) -> all.put(name, List.of(value)));
        return all;
    }

    @Test
    void anAcceptedWebhookIsDeliveredSignedFromTheTenantsDedicatedIp() throws Exception {
        EntityExchangeResult<byte[]> result = accept(body("acme", "/a"), null);

        assertThat(result.getStatus().value()).isEqualTo(202);
        String id = json(result.getResponseBody()).get("id").asString();
        assertThat(result.getResponseHeaders().getFirst("Location")).isEqualTo("/v1/deliveries/" + id);
        assertThat(result.getResponseHeaders().getFirst("Preference-Applied")).isEqualTo("respond-async");
        JsonNode done = awaitStatus(id, "delivered");
        assertThat(done.get("tenantId").asString()).isEqualTo("acme");
        assertThat(done.has("nextAttemptAt")).isFalse();
        JsonNode attempt = done.get("attempts").get(0);
        assertThat(attempt.get("egressIp").asString()).isEqualTo("127.0.0.2");
        assertThat(attempt.get("borderId").asString()).isEqualTo("b-1");
        assertThat(attempt.get("outcome").asString()).isEqualTo("delivered");
        assertThat(attempt.get("targetStatus").asInt()).isEqualTo(200);
        assertThat(sink.received()).hasSize(1);
        RecordingSink.Received received = sink.received().get(0);
        assertThat(received.peer().getHostAddress()).isEqualTo("127.0.0.2");
        assertThat(received.headers().get("webhook-id")).isEqualTo(id);
        new Webhook(SECRET).verify(received.body(), listed(received.headers()));
        assertThat(meters.counter("egress.durable.accepted", "tenant", "acme").count())
                .isGreaterThanOrEqualTo(1);
        assertThat(meters.counter("egress.durable.delivered", "tenant", "acme").count())
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void aTargetThatIsDownThenUpGetsItWithEveryAttemptLogged() {
        sink.reply(new RecordingSink.Reply(503, "down", Duration.ZERO, Map.of()));
        String id = accepted("beta", "/down");
        await().atMost(Duration.ofSeconds(20)).until(() -> !sink.received().isEmpty());
        sink.reply(RecordingSink.Reply.ok());

        JsonNode done = awaitStatus(id, "delivered");

        JsonNode attempts = done.get("attempts");
        assertThat(attempts.size()).isBetween(2, 3);
        assertThat(attempts.get(0).get("outcome").asString()).isEqualTo("retry");
        assertThat(attempts.get(0).get("targetStatus").asInt()).isEqualTo(503);
        assertThat(attempts.get(0).get("excerpt").asString()).isEqualTo("down");
        assertThat(attempts.get(attempts.size() - 1).get("outcome").asString()).isEqualTo("delivered");
        assertThat(meters.counter("egress.durable.attempts", "tenant", "beta", "outcome", "retry")
                        .count())
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void goneStopsAtOnceAndARetryStartsANewSeriesWithTheSameWebhookId() {
        sink.reply(new RecordingSink.Reply(410, "", Duration.ZERO, Map.of()));
        String id = accepted("acme", "/gone");

        JsonNode dead = awaitStatus(id, "dead");
        assertThat(dead.get("attempts")).hasSize(1);
        assertThat(dead.get("attempts").get(0).get("targetStatus").asInt()).isEqualTo(410);
        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(5))
                .until(() -> sink.received().size() == 1);

        sink.reply(RecordingSink.Reply.ok());
        JsonNode again = json(client().post()
                .uri("/v1/deliveries/" + id + "/retry")
                .exchange()
                .expectStatus()
                .isAccepted()
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(again.get("id").asString()).isEqualTo(id);
        assertThat(again.get("status").asString()).isEqualTo("pending");

        JsonNode done = awaitStatus(id, "delivered");
        assertThat(done.get("series").asInt()).isEqualTo(2);
        assertThat(done.get("attempts")).hasSize(2);
        assertThat(done.get("attempts").get(1).get("series").asInt()).isEqualTo(2);
        assertThat(sink.received()).hasSize(2);
        assertThat(sink.received())
                .extracting(r -> r.headers().get("webhook-id"))
                .containsExactly(id, id);
    }

    @Test
    void aTargetsRetryAfterIsRespected() {
        sink.reply(new RecordingSink.Reply(503, "", Duration.ZERO, Map.of("Retry-After", "3")));
        String id = accepted("beta", "/later");
        await().atMost(Duration.ofSeconds(20)).until(() -> !sink.received().isEmpty());
        sink.reply(RecordingSink.Reply.ok());

        JsonNode done = awaitStatus(id, "delivered");

        JsonNode attempts = done.get("attempts");
        assertThat(attempts).hasSize(2);
        Instant first = Instant.parse(attempts.get(0).get("at").asString());
        Instant second = Instant.parse(attempts.get(1).get("at").asString());
        assertThat(Duration.between(first, second))
                .as("the schedule says 1 s, the target 3 s")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aDisabledOnlyIpMakesTheWebhookWaitAndNeverLeaveFromAnotherIp() {
        sink.reply(new RecordingSink.Reply(503, "", Duration.ZERO, Map.of()));
        String id = accepted("patient", "/wait");
        await().atMost(Duration.ofSeconds(20)).until(() -> !sink.received().isEmpty());
        border.setStatus("127.0.0.3", IpStatus.DISABLED);
        publish();
        sink.reply(RecordingSink.Reply.ok());
        try {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> delivery(id)
                            .get("attempts")
                            .findValuesAsString("reason")
                            .contains("no-egress-available"));
        } finally {
            border.setStatus("127.0.0.3", IpStatus.ACTIVE);
            publish();
        }

        JsonNode done = awaitStatus(id, "delivered");

        assertThat(sink.received()).extracting(r -> r.peer().getHostAddress()).containsOnly("127.0.0.3");
        JsonNode attempts = done.get("attempts");
        assertThat(attempts.get(attempts.size() - 1).get("egressIp").asString()).isEqualTo("127.0.0.3");
    }

    @Test
    void aHangingTargetDoesNotDelayAnotherTargetsDeliveries() throws Exception {
        try (RecordingSink hanging = RecordingSink.start()) {
            hanging.reply(new RecordingSink.Reply(200, "", Duration.ofSeconds(30), Map.of()));
            String slow = null;
            for (int i = 0; i < 4; i++) {
                EntityExchangeResult<byte[]> r = accept(
                        "{\"tenantId\":\"beta\",\"url\":\"" + hanging.baseUri() + "/hang\",\"body\":\"x\"}", null);
                assertThat(r.getStatus().value()).isEqualTo(202);
                slow = json(r.getResponseBody()).get("id").asString();
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> hanging.received().size() == 2);
            long start = System.nanoTime();

            String fast = accepted("beta", "/fast");

            awaitStatus(fast, "delivered");
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("delivered while the hanging target holds its attempts (timeout 4 s)")
                    .isLessThan(Duration.ofSeconds(4));
            assertThat(hanging.received())
                    .as("at most 2 at once to one destination")
                    .hasSize(2);
            String busy = slow;
            client().post()
                    .uri("/v1/deliveries/" + busy + "/retry")
                    .exchange()
                    .expectStatus()
                    .isEqualTo(409)
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:not-retryable");
        }
    }

    @Test
    void aRecordLeftByAnAppThatDiedIsDeliveredAfterItsLeaseWithTheSameWebhookId() {
        double expiriesBefore = meters.counter("egress.durable.lease.expiries").count();
        String id = UUID.randomUUID().toString();
        // As an App that accepted it and died before its first attempt: leased to it for one second.
        store.accept(
                new NewDelivery(
                        id, "acme", null, "sha256:test", body("acme", "/orphan").getBytes(StandardCharsets.UTF_8), 1),
                "an-app-that-died",
                Instant.now(),
                Duration.ofSeconds(1));

        JsonNode done = awaitStatus(id, "delivered");

        assertThat(done.get("attempts")).hasSize(1);
        assertThat(sink.received()).hasSize(1);
        assertThat(sink.received().get(0).headers().get("webhook-id")).isEqualTo(id);
        assertThat(sink.received().get(0).peer().getHostAddress()).isEqualTo("127.0.0.2");
        assertThat(meters.counter("egress.durable.lease.expiries").count()).isGreaterThan(expiriesBefore);
    }

    @Test
    void anInvalidRequestIsRefusedBeforeAnythingIsStored() {
        EntityExchangeResult<byte[]> bad = accept("{\"tenantId\":\"quiet\",\"payload\":{}}", null);
        assertThat(bad.getStatus().value()).isEqualTo(400);
        assertThat(json(bad.getResponseBody()).get("field").asString()).isEqualTo("url");
        EntityExchangeResult<byte[]> unknown = accept(body("nobody", "/x"), null);
        assertThat(unknown.getStatus().value()).isEqualTo(404);
        assertThat(json(unknown.getResponseBody()).get("type").asString())
                .isEqualTo("urn:egress:problem:unknown-tenant");

        JsonNode page = json(client().get()
                .uri("/v1/deliveries?tenantId=quiet")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(page.get("deliveries")).isEmpty();
        client().get()
                .uri("/v1/deliveries")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("tenantId");
        client().get()
                .uri("/v1/deliveries/no-such-id")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:unknown-delivery");
    }

    @Test
    void theSameIdempotencyKeyTwiceIsOneRecordAndAnotherBodyUnderItIsRefused() {
        String key = "order-" + UUID.randomUUID();
        EntityExchangeResult<byte[]> first = accept(body("quiet", "/once"), key);
        EntityExchangeResult<byte[]> second = accept(body("quiet", "/once"), key);

        assertThat(first.getStatus().value()).isEqualTo(202);
        assertThat(second.getStatus().value()).isEqualTo(202);
        String id = json(first.getResponseBody()).get("id").asString();
        assertThat(json(second.getResponseBody()).get("id").asString()).isEqualTo(id);
        assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        assertThat(accept(body("quiet", "/other"), key).getStatus().value()).isEqualTo(422);
        awaitStatus(id, "delivered");
        assertThat(sink.received()).hasSize(1);
        JsonNode page = json(client().get()
                .uri("/v1/deliveries?tenantId=quiet&limit=1")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(page.get("deliveries")).hasSize(1);
        assertThat(page.get("deliveries").get(0).get("id").asString()).isEqualTo(id);
    }

    @Test
    void aTenantBoundTokenSeesOnlyItsOwnTenant() {
        String acmes = accepted("acme", "/mine");
        String betas = accepted("beta", "/mine");

        client(BETA_TOKEN)
                .get()
                .uri("/v1/deliveries/" + acmes)
                .exchange()
                .expectStatus()
                .isNotFound();
        client(BETA_TOKEN)
                .get()
                .uri("/v1/deliveries/" + betas)
                .exchange()
                .expectStatus()
                .isOk();
        client(BETA_TOKEN)
                .get()
                .uri("/v1/deliveries?tenantId=acme")
                .exchange()
                .expectStatus()
                .isForbidden();
        client(BETA_TOKEN)
                .post()
                .uri("/v1/deliveries/" + acmes + "/retry")
                .exchange()
                .expectStatus()
                .isNotFound();
        client(BETA_TOKEN)
                .post()
                .uri("/v1/tenants/acme/deliveries/retry")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"status\":\"dead\"}")
                .exchange()
                .expectStatus()
                .isForbidden();
        client(BETA_TOKEN)
                .get()
                .uri("/v1/deliveries?tenantId=beta")
                .exchange()
                .expectStatus()
                .isOk();
    }

    @Test
    void aTenantsDeadDeliveriesOfAWindowAreSentAgain() {
        sink.reply(new RecordingSink.Reply(410, "", Duration.ZERO, Map.of()));
        Instant since = Instant.now().minusSeconds(1);
        String a = accepted("patient", "/w1");
        String b = accepted("patient", "/w2");
        awaitStatus(a, "dead");
        awaitStatus(b, "dead");
        sink.reply(RecordingSink.Reply.ok());

        JsonNode retried = json(client().post()
                .uri("/v1/tenants/patient/deliveries/retry")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"status\":\"dead\",\"since\":\"" + since + "\",\"until\":\"" + Instant.now() + "\"}")
                .exchange()
                .expectStatus()
                .isAccepted()
                .expectBody()
                .returnResult()
                .getResponseBody());

        assertThat(retried.get("retried").asInt()).isEqualTo(2);
        awaitStatus(a, "delivered");
        awaitStatus(b, "delivered");
    }
}
