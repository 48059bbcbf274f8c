package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.web.testing.RecordingSink;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * Durable delivery through the whole platform as real processes: two Apps sharing the delivery tables of one
 * YDB node that keeps them in a data directory, two Borders, a loopback receiver. What no single process can
 * show: one {@code Idempotency-Key} on two Apps is one record; 2,000 webhooks spread over both Apps are each
 * delivered, and the duplicates are counted; an App killed ({@code kill -9}) in the middle of an attempt leaves
 * the record to the other App once the lease ends, under the same {@code webhook-id}; the node killed
 * ({@code kill -9}) and restarted on its data directory loses nothing that was accepted. Every delivery of the
 * dedicated tenant leaves from its own IP.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DurableDeliveryFaultsIT {

    /** acme's one dedicated IP, on border-a. */
    private static final String ACME_IP = "127.0.0.3";

    private static final Duration LEASE = Duration.ofSeconds(8);

    private Platform platform;
    private RecordingSink sink;

    @BeforeAll
    void start() throws IOException {
        sink = RecordingSink.start();
        Path work = Files.createTempDirectory("durable");
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Path secrets = Files.writeString(
                work.resolve("signing-secrets.yaml"),
                "acme: [whsec_" + Base64.getEncoder().encodeToString(key) + "]\n");
        Map<String, List<String>> borders = new LinkedHashMap<>();
        borders.put("border-a", List.of("127.0.0.2", ACME_IP));
        borders.put("border-b", List.of("127.0.0.4"));
        platform = Platform.start(
                new Platform.Layout(
                        borders,
                        """
                        sharedPool: [127.0.0.2, 127.0.0.4]
                        tenants:
                          - id: acme
                            dedicatedIps: [127.0.0.3]
                            signing: true
                          - id: small-co
                        """,
                        2,
                        List.of(),
                        List.of(
                                "--egress.delivery.store.connection-string={node}",
                                "--egress.signing.secrets-file=" + secrets,
                                // Quick retries, many of them: a node restart must not use up the schedule.
                                "--egress.delivery.retry.schedule=0s,1s,2s,2s,3s,3s,3s,3s,3s,3s,3s,3s,3s,3s,3s,3s",
                                "--egress.delivery.retry.retry-after-floor=1s",
                                "--egress.delivery.lease=" + LEASE.toSeconds() + "s",
                                "--egress.delivery.attempt-timeout=5s")),
                List.of("--data-dir=" + work.resolve("ydb-data")));
    }

    @AfterAll
    void stop() {
        if (platform != null) {
            platform.close();
        }
        if (sink != null) {
            sink.close();
        }
    }

    @BeforeEach
    void healthyTarget() {
        sink.reply(RecordingSink.Reply.ok());
        sink.clear();
    }

    @Test
    @Order(1)
    void oneIdempotencyKeyOnTwoAppsIsOneRecord() {
        String key = "order-" + UUID.randomUUID();
        String marker = UUID.randomUUID().toString();

        Http.Response first = accept(0, body("acme", marker), key);
        Http.Response repeat = accept(1, body("acme", marker), key);
        Http.Response otherBody = accept(1, body("acme", "another"), key);

        assertThat(first.status()).as(first.text()).isEqualTo(202);
        assertThat(repeat.status()).as(repeat.text()).isEqualTo(202);
        String id = first.json().get("id").asString();
        assertThat(repeat.json().get("id").asString()).isEqualTo(id);
        assertThat(otherBody.status()).as(otherBody.text()).isEqualTo(422);
        awaitStatus(1, id, "delivered");
        JsonNode record = get(0, id).json();
        assertThat(record.get("attempts")).hasSize(1);
        assertThat(receivedWith(marker)).hasSize(1);
        assertThat(receivedWith(marker).get(0).peer().getHostAddress()).isEqualTo(ACME_IP);
    }

    @Test
    @Order(2)
    void twoThousandWebhooksOnTwoAppsAreEachDelivered() throws Exception {
        int count = 2_000;
        String run = UUID.randomUUID().toString();
        List<String> ids = new ArrayList<>(count);
        ExecutorService callers = Executors.newFixedThreadPool(16);
        try {
            List<Future<Http.Response>> answers = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int n = i;
                String tenant = n % 2 == 0 ? "acme" : "small-co";
                answers.add(callers.submit(() -> accept(n % 2, body(tenant, run + "/" + n), null)));
            }
            for (Future<Http.Response> answer : answers) {
                Http.Response response = answer.get();
                assertThat(response.status()).as(response.text()).isEqualTo(202);
                ids.add(response.json().get("id").asString());
            }
        } finally {
            callers.shutdownNow();
        }
        assertThat(new TreeSet<>(ids)).hasSize(count);

        await("2,000 webhooks received")
                .atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> markers(run).size() == count);
        List<RecordingSink.Received> received =
                sink.received().stream().filter(r -> r.body().contains(run)).toList();
        int duplicates = received.size() - markers(run).size();
        System.out.printf(
                "durable delivery: %d webhooks on 2 Apps, %d received, %d duplicates%n",
                count, received.size(), duplicates);
        assertThat(duplicates).as("duplicates without faults").isZero();
        assertThat(received)
                .filteredOn(r -> r.body().contains("\"acme\""))
                .allSatisfy(r -> assertThat(r.peer().getHostAddress()).isEqualTo(ACME_IP));
        List<String> sample = new ArrayList<>();
        for (int i = 0; i < ids.size(); i += 50) {
            sample.add(ids.get(i));
        }
        await("every record delivered")
                .atMost(Duration.ofSeconds(60))
                .until(() -> sample.stream().allMatch(id -> "delivered".equals(status(0, id))));
    }

    @Test
    @Order(3)
    void anAppKilledMidAttemptLeavesTheRecordToTheOtherApp() {
        // The target holds the first attempt open, so App 0 is in the middle of it when it dies.
        sink.reply(new RecordingSink.Reply(200, "{}", Duration.ofSeconds(30), Map.of()));
        String marker = UUID.randomUUID().toString();
        Http.Response accepted = accept(0, body("acme", marker), null);
        assertThat(accepted.status()).as(accepted.text()).isEqualTo(202);
        String id = accepted.json().get("id").asString();
        await("the first attempt reached the target")
                .atMost(Duration.ofSeconds(30))
                .until(() -> !receivedWith(marker).isEmpty());

        platform.apps.get(0).kill();
        sink.reply(RecordingSink.Reply.ok());

        await("App 1 delivers after the lease")
                .atMost(LEASE.plus(Duration.ofSeconds(60)))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> "delivered".equals(status(1, id)));
        List<RecordingSink.Received> attempts = receivedWith(marker);
        assertThat(attempts).hasSizeGreaterThanOrEqualTo(2);
        assertThat(attempts.stream().map(r -> r.headers().get("webhook-id")).collect(Collectors.toSet()))
                .as("one webhook-id on every attempt")
                .containsExactly(id);
        assertThat(attempts)
                .allSatisfy(r -> assertThat(r.peer().getHostAddress()).isEqualTo(ACME_IP));

        platform.apps.get(0).restart();
        await("App 0 ready again")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> platform.http
                        .get(platform.appUri(0, "/actuator/health/readiness"), null)
                        .ok());
    }

    @Test
    @Order(4)
    void theNodeKilledAndRestartedOnItsDataLosesNothingAccepted() {
        sink.reply(new RecordingSink.Reply(503, "down", Duration.ZERO, Map.of()));
        String run = UUID.randomUUID().toString();
        Set<String> ids = new TreeSet<>();
        for (int n = 0; n < 50; n++) {
            Http.Response accepted = accept(n % 2, body(n % 2 == 0 ? "acme" : "small-co", run + "/" + n), null);
            assertThat(accepted.status()).as(accepted.text()).isEqualTo(202);
            ids.add(accepted.json().get("id").asString());
        }
        int started = countOf(platform.coordination.logText(), platform.connectionString());

        platform.coordination.kill();
        assertThat(platform.coordination.awaitExit(Duration.ofSeconds(10))).isTrue();
        platform.coordination.restart();
        await("the node listens again")
                .atMost(Duration.ofSeconds(60))
                .until(() -> countOf(platform.coordination.logText(), platform.connectionString()) > started);
        sink.reply(RecordingSink.Reply.ok());

        await("every accepted webhook delivered")
                .atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> ids.stream().allMatch(id -> "delivered".equals(status(1, id))));
        assertThat(markers(run)).hasSize(ids.size());
    }

    private static String body(String tenant, String marker) {
        return "{\"tenantId\":\"" + tenant + "\",\"url\":\"URL\",\"payload\":{\"marker\":\"" + marker
                + "\",\"tenant\":\"" + tenant + "\"}}";
    }

    private Http.Response accept(int app, String body, String idempotencyKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(platform.appUri(app, "/v1/deliveries"))
                .POST(HttpRequest.BodyPublishers.ofString(body.replace("URL", sink.baseUri() + "/hook")))
                .header("Content-Type", "application/json")
                .header("Prefer", "respond-async");
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return platform.http.send(request, Platform.API_TOKEN);
    }

    private Http.Response get(int app, String id) {
        return platform.http.get(platform.appUri(app, "/v1/deliveries/" + id), Platform.API_TOKEN);
    }

    private String status(int app, String id) {
        Http.Response response = get(app, id);
        return response.status() == 200 ? response.json().get("status").asString() : "http " + response.status();
    }

    private void awaitStatus(int app, String id, String status) {
        await(id + " " + status)
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> status.equals(status(app, id)));
    }

    private List<RecordingSink.Received> receivedWith(String marker) {
        return sink.received().stream().filter(r -> r.body().contains(marker)).toList();
    }

    /** The distinct markers of a run that the target received. */
    private Set<String> markers(String run) {
        Map<String, Integer> seen = new HashMap<>();
        for (RecordingSink.Received r : sink.received()) {
            int at = r.body().indexOf(run + "/");
            if (at >= 0) {
                String marker = r.body().substring(at, r.body().indexOf('"', at));
                seen.merge(marker, 1, Integer::sum);
            }
        }
        return seen.keySet();
    }

    private static int countOf(String text, String needle) {
        int count = 0;
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
            count++;
        }
        return count;
    }
}
