package dev.egress.app.delivery.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.AppApplication;
import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.app.support.DurableApps;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.web.testing.RecordingSink;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The synchronous form's {@code Idempotency-Key} across Apps: two Apps (this test's context and a second one) on one
 * real embedded YDB node, one Border double, loopback receivers. A key is one delivery on every App, in the key space
 * of the asynchronous form; the record a synchronous delivery makes is finished by it and never sent by a worker.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SyncIdempotencyIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path DIR = DurableApps.tenantsDir("sync-idempotency", "127.0.0.2");
    private static final String PREFIX = "sync" + UUID.randomUUID().toString().substring(0, 8) + "_";
    private static EmbeddedCoordinationNode node;
    private static BorderDouble border;
    private static ConfigurableApplicationContext other;

    /** Both Apps' settings but their names: a lease shorter than a slow target's answer, workers polling often. */
    private static Map<String, String> settings() {
        Map<String, String> settings = DurableApps.settings(DIR, node.connectionString(), PREFIX);
        settings.put("egress.delivery.retry.schedule", "0s,1s,1s");
        settings.put("egress.delivery.retry.jitter", "0");
        settings.put("egress.delivery.poll-interval", "100ms");
        settings.put("egress.delivery.lease", "2s");
        settings.put("egress.delivery.attempt-timeout", "1s");
        return settings;
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws Exception {
        node = EmbeddedCoordinationNode.start(0);
        settings().forEach((name, value) -> registry.add(name, () -> value));
        registry.add("egress.delivery.worker-id", () -> "app-a");
    }

    @Autowired
    RoutingTable table;

    @LocalServerPort
    int port;

    private RecordingSink sink;

    @BeforeEach
    void start() throws IOException {
        if (border == null) {
            border = BorderDouble.start(
                    "b-sync", AppITSupport.INTERNAL_TOKEN, Duration.ofSeconds(10), "127.0.0.2", "127.0.0.8");
        }
        if (other == null) {
            Map<String, String> settings = settings();
            settings.put("egress.delivery.worker-id", "app-b");
            settings.put("server.port", "0");
            // As arguments: above application.yml, as the test context's dynamic properties are.
            String[] args = settings.entrySet().stream()
                    .map(e -> "--" + e.getKey() + "=" + e.getValue())
                    .toArray(String[]::new);
            other = new SpringApplicationBuilder(AppApplication.class).run(args);
        }
        RoutingSnapshot snapshot = RoutingSnapshot.fromAnnouncements(List.of(border.announcement()), Instant.now());
        table.offer(snapshot);
        other.getBean(RoutingTable.class).offer(snapshot);
        sink = RecordingSink.start();
    }

    @AfterEach
    void stop() {
        sink.close();
    }

    @AfterAll
    static void stopAll() throws Exception {
        if (other != null) {
            other.close();
            other = null;
        }
        if (border != null) {
            border.close();
            border = null;
        }
        node.close();
    }

    private WebTestClient client(int appPort) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + appPort)
                .responseTimeout(Duration.ofSeconds(30))
                .defaultHeader("Authorization", "Bearer " + AppITSupport.API_TOKEN)
                .build();
    }

    private WebTestClient appA() {
        return client(port);
    }

    private WebTestClient appB() {
        return client(Integer.parseInt(other.getEnvironment().getProperty("local.server.port")));
    }

    private String body(String path) {
        return "{\"tenantId\":\"acme\",\"url\":\"" + sink.baseUri() + path + "\",\"payload\":{\"n\": 1.10}}";
    }

    private static EntityExchangeResult<byte[]> post(WebTestClient app, String body, String key, boolean async) {
        WebTestClient.RequestBodySpec post = app.post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .header("Idempotency-Key", key);
        if (async) {
            post.header("Prefer", "respond-async");
        }
        return post.bodyValue(body).exchange().expectBody().returnResult();
    }

    private static JsonNode json(byte[] body) {
        return JSON.readTree(body);
    }

    private JsonNode record(String id) {
        return json(appB().get()
                .uri("/v1/deliveries/" + id)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
    }

    /** No further call reaches the sink for a while (workers poll every 100 ms; a retry would be due within 1 s). */
    private void receivesNoMoreThan(int calls) {
        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(5))
                .until(() -> sink.received().size() == calls);
    }

    private static void assertSeeOther(EntityExchangeResult<byte[]> repeat, String id) {
        assertThat(repeat.getStatus().value()).isEqualTo(303);
        assertThat(repeat.getResponseHeaders().getLocation()).hasToString("/v1/deliveries/" + id);
        assertThat(repeat.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        assertThat(json(repeat.getResponseBody()).get("id").asString()).isEqualTo(id);
    }

    @Test
    void aKeyedRepeatOnAnotherAppSendsNothingAndIsSentToTheFirstRecord() {
        String key = "sync-" + UUID.randomUUID();
        EntityExchangeResult<byte[]> first = post(appA(), body("/once"), key, false);
        assertThat(first.getStatus().value()).isEqualTo(200);
        String id = json(first.getResponseBody()).get("id").asString();
        assertThat(sink.received()).hasSize(1);

        EntityExchangeResult<byte[]> repeat = post(appB(), body("/once"), key, false);

        assertSeeOther(repeat, id);
        assertThat(json(repeat.getResponseBody()).get("status").asString()).isEqualTo("delivered");
        JsonNode record = record(id);
        assertThat(record.get("status").asString()).isEqualTo("delivered");
        assertThat(record.get("attempts")).hasSize(1);
        assertThat(record.get("attempts").get(0).get("targetStatus").asInt()).isEqualTo(200);
        assertThat(record.get("attempts").get(0).get("egressIp").asString()).isEqualTo("127.0.0.2");
        // The same App still replays the whole answer from memory.
        EntityExchangeResult<byte[]> local = post(appA(), body("/once"), key, false);
        assertThat(local.getStatus().value()).isEqualTo(200);
        assertThat(local.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        assertThat(json(local.getResponseBody()).get("response").get("status").asInt())
                .isEqualTo(200);
        receivesNoMoreThan(1);
    }

    @Test
    void anotherBodyUnderTheKeyIsRefusedOnEveryApp() {
        String key = "sync-" + UUID.randomUUID();
        assertThat(post(appA(), body("/first"), key, false).getStatus().value()).isEqualTo(200);

        assertThat(post(appB(), body("/second"), key, false).getStatus().value())
                .isEqualTo(422);
        assertThat(post(appA(), body("/second"), key, false).getStatus().value())
                .isEqualTo(422);
        assertThat(post(appB(), body("/second"), key, true).getStatus().value()).isEqualTo(422);
        receivesNoMoreThan(1);
    }

    @Test
    void aFailedSynchronousDeliveryIsRecordedDeadAndNeverRetriedByTheWorkers() {
        sink.reply(new RecordingSink.Reply(500, "{\"broken\":true}", Duration.ZERO, Map.of()));
        String key = "sync-" + UUID.randomUUID();
        EntityExchangeResult<byte[]> first = post(appA(), body("/failing"), key, false);
        assertThat(first.getStatus().value()).isEqualTo(200);
        String id = json(first.getResponseBody()).get("id").asString();

        receivesNoMoreThan(1);
        JsonNode record = record(id);
        assertThat(record.get("status").asString()).isEqualTo("dead");
        assertThat(record.get("attempts")).hasSize(1);
        assertThat(record.get("attempts").get(0).get("targetStatus").asInt()).isEqualTo(500);
        assertSeeOther(post(appB(), body("/failing"), key, false), id);
    }

    @Test
    void aTargetThatCannotBeReachedIsRecordedDeadWithTheProblemAndAnsweredOnAnotherApp() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        String unreachable = "{\"tenantId\":\"acme\",\"url\":\"http://127.0.0.1:" + closed + "/gone\",\"payload\":1}";
        String key = "sync-" + UUID.randomUUID();

        EntityExchangeResult<byte[]> first = post(appA(), unreachable, key, false);

        assertThat(first.getStatus().value()).isEqualTo(502);
        String id = json(first.getResponseBody()).get("deliveryId").asString();
        JsonNode record = record(id);
        assertThat(record.get("status").asString()).isEqualTo("dead");
        assertThat(record.get("attempts")).hasSize(1);
        assertThat(record.get("attempts").get(0).get("reason").asString()).isEqualTo("target-unreachable");
        assertSeeOther(post(appB(), unreachable, key, false), id);
    }

    @Test
    void aSlowTargetIsNotSentAgainByAWorkerWhenTheCallOutlastsTheLease() {
        // The lease is 2 s; the target answers after 3.5 s. A record held only for the lease would be claimed and
        // sent by a worker while the synchronous call still runs.
        sink.reply(new RecordingSink.Reply(
                200, "{\"slow\":true}", Duration.ofMillis(3500), Map.of("Content-Type", "application/json")));
        String key = "sync-" + UUID.randomUUID();

        EntityExchangeResult<byte[]> first = post(appA(), body("/slow"), key, false);

        assertThat(first.getStatus().value()).isEqualTo(200);
        assertThat(sink.received()).hasSize(1);
        String id = json(first.getResponseBody()).get("id").asString();
        assertThat(record(id).get("status").asString()).isEqualTo("delivered");
        receivesNoMoreThan(1);
    }

    @Test
    void theAsynchronousAndSynchronousFormsShareOneKeySpace() {
        String asyncFirst = "async-" + UUID.randomUUID();
        EntityExchangeResult<byte[]> accepted = post(appA(), body("/shared"), asyncFirst, true);
        assertThat(accepted.getStatus().value()).isEqualTo(202);
        String id = json(accepted.getResponseBody()).get("id").asString();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> record(id).get("status").asString().equals("delivered"));

        assertSeeOther(post(appB(), body("/shared"), asyncFirst, false), id);
        assertSeeOther(post(appA(), body("/shared"), asyncFirst, false), id);

        String syncFirst = "sync-" + UUID.randomUUID();
        EntityExchangeResult<byte[]> sent = post(appB(), body("/shared"), syncFirst, false);
        assertThat(sent.getStatus().value()).isEqualTo(200);
        String syncId = json(sent.getResponseBody()).get("id").asString();
        EntityExchangeResult<byte[]> repeat = post(appA(), body("/shared"), syncFirst, true);
        assertThat(repeat.getStatus().value()).isEqualTo(202);
        assertThat(json(repeat.getResponseBody()).get("id").asString()).isEqualTo(syncId);
        assertThat(repeat.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        receivesNoMoreThan(2);
    }
}
