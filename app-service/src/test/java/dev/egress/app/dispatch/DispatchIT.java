package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.web.forward.ForwardFrame;
import dev.egress.discovery.web.testing.RecordingSink;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The dispatch path end to end over real sockets: App → Border (the contract's test double, which
 * really sends from the bound source IP) → a {@link RecordingSink} that records the peer address.
 */
class DispatchIT extends AppITSupport {

    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    CircuitBreakerRegistry breakerRegistry;

    private RecordingSink sink;
    private final List<BorderDouble> borders = new ArrayList<>();

    @BeforeEach
    void startSink() throws IOException {
        sink = RecordingSink.start();
    }

    @AfterEach
    void stopAll() {
        publish();
        borders.forEach(BorderDouble::close);
        sink.close();
    }

    /** Border ids carry a per-test number so breakers and health never leak between tests. */
    private BorderDouble border(String prefix, String... ips) {
        BorderDouble border =
                BorderDouble.start(prefix + "-" + SEQ.incrementAndGet(), INTERNAL_TOKEN, Duration.ofSeconds(2), ips);
        borders.add(border);
        return border;
    }

    private String hook() {
        return sink.baseUri() + "/hook";
    }

    private Set<String> peers() {
        return sink.received().stream().map(r -> r.peer().getHostAddress()).collect(Collectors.toSet());
    }

    private String prometheus() {
        return client().get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    private JsonNode json(byte[] body) {
        return JSON.readTree(body);
    }

    @Test
    void dedicatedTenantsDeliveriesLeaveOnlyFromItsIpsAndSharedOnlyFromThePool() {
        BorderDouble a = border("a", "127.0.0.2", "127.0.0.8");
        BorderDouble b = border("b", "127.0.0.3", "127.0.0.4", "127.0.0.9");
        publish(a.announcement(), b.announcement());

        for (int i = 0; i < 100; i++) {
            deliver("acme", hook()).expectStatus().isOk().expectBody().returnResult();
        }
        assertThat(sink.received()).hasSize(100);
        assertThat(peers()).isSubsetOf("127.0.0.2", "127.0.0.3");

        sink.clear();
        for (int i = 0; i < 100; i++) {
            deliver("small-co", hook()).expectStatus().isOk().expectBody().returnResult();
        }
        assertThat(sink.received()).hasSize(100);
        assertThat(peers()).isSubsetOf("127.0.0.8", "127.0.0.9");
    }

    @Test
    void sendsEachAttemptsDeadlineToTheBorderAsEpochMillisLessTheSkewMargin() {
        BorderDouble a = border("a", "127.0.0.2", "127.0.0.3");
        publish(a.announcement());
        long before = System.currentTimeMillis();

        deliver("acme", hook()).expectStatus().isOk().expectBody().returnResult();
        long after = System.currentTimeMillis();

        // attempt-timeout 40s (sooner than overall-timeout 60s) less deadline-margin 250ms, both defaults.
        assertThat(Long.parseLong(a.lastDeadline())).isBetween(before + 39_750, after + 39_750);
    }

    @Test
    void continuesTheCallersTraceToTheBorderAndNotToTheTarget() {
        BorderDouble a = border("a", "127.0.0.2", "127.0.0.3");
        publish(a.announcement());
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";

        client().post()
                .uri("/v1/deliveries")
                .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("tenantId", "acme", "url", hook(), "payload", Map.of("event", "ping")))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();

        // The Border hears the caller's trace id with App's own span as the parent; the target hears nothing
        // of it: its headers are the caller's webhook headers only.
        assertThat(a.lastTraceparent()).startsWith("00-" + traceId + "-").doesNotContain("00f067aa0ba902b7");
        assertThat(sink.received().get(0).headers()).doesNotContainKey("traceparent");
    }

    @Test
    void withoutACallersTraceTheBorderStillHearsAppsOwnTrace() {
        BorderDouble a = border("a", "127.0.0.2", "127.0.0.3");
        publish(a.announcement());

        deliver("acme", hook()).expectStatus().isOk().expectBody().returnResult();

        assertThat(a.lastTraceparent()).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]");
    }

    @Test
    void answersWithTheTargetsResponseAndTheAttempts() {
        BorderDouble a = border("a", "127.0.0.2", "127.0.0.3");
        publish(a.announcement());
        sink.reply(new RecordingSink.Reply(
                201, "{\"seen\":true}", Duration.ZERO, Map.of("Content-Type", "application/json")));

        byte[] body = deliver("acme", hook())
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();

        JsonNode answer = json(body);
        assertThat(answer.get("id").stringValue()).isNotBlank();
        assertThat(answer.get("tenantId").stringValue()).isEqualTo("acme");
        assertThat(answer.get("egressIp").stringValue()).isEqualTo("127.0.0.2");
        assertThat(answer.get("borderId").stringValue()).isEqualTo(a.id().value());
        assertThat(answer.get("response").get("status").intValue()).isEqualTo(201);
        assertThat(answer.get("response").get("body").stringValue()).isEqualTo("{\"seen\":true}");
        assertThat(answer.get("attempts")).hasSize(1);
        assertThat(answer.get("attempts").get(0).get("outcome").stringValue()).isEqualTo("delivered");
        assertThat(sink.received().get(0).body()).isEqualTo("{\"event\":\"ping\"}");
        assertThat(sink.received().get(0).method()).isEqualTo("POST");
    }

    @Test
    void withDurableDeliveryOffPreferRespondAsyncIsIgnoredAndTheDeliveriesFamilyAnswers503() {
        BorderDouble a = border("a", "127.0.0.2", "127.0.0.3");
        publish(a.announcement());

        client().post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .header("Prefer", "respond-async")
                .bodyValue(Map.of("tenantId", "acme", "url", hook(), "payload", Map.of("event", "ping")))
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .doesNotExist("Preference-Applied");

        assertThat(sink.received()).hasSize(1);
        for (String path : List.of("/v1/deliveries/some-id", "/v1/deliveries?tenantId=acme")) {
            client().get()
                    .uri(path)
                    .exchange()
                    .expectStatus()
                    .isEqualTo(503)
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:durable-delivery-off");
        }
        client().post()
                .uri("/v1/deliveries/some-id/retry")
                .exchange()
                .expectStatus()
                .isEqualTo(503);
    }

    @Test
    void theForwardCallCarriesTheCallersBytesRawAndTheAnswerComesBackRaw() {
        BorderDouble a = border("a", "127.0.0.2");
        publish(a.announcement());
        // Not UTF-8, with bytes JSON would escape: the raw form must carry them untouched, not re-encoded.
        byte[] bytes = {0, (byte) 0xff, (byte) 0xfe, '"', '\\', '\n', (byte) 0xc3, (byte) 0xa9, 0x7f, 1};
        sink.reply(new RecordingSink.Reply(200, "\u00e9t\u00e9 \"quoted\"", Duration.ZERO, Map.of()));

        byte[] body = deliverBytes(bytes);

        assertThat(a.lastContentType()).isEqualTo(ForwardFrame.MEDIA_TYPE);
        assertThat(a.lastBody()).isEqualTo(bytes);
        assertThat(sink.received()).hasSize(1);
        assertThat(sink.received().get(0).bytes()).isEqualTo(bytes);
        assertThat(json(body).get("response").get("body").stringValue()).isEqualTo("\u00e9t\u00e9 \"quoted\"");
    }

    @Test
    void aBorderThatRefusesTheRawFormGetsTheJsonFormInTheSameAttempt() {
        BorderDouble old = border("old", "127.0.0.2");
        old.refuseRawForm(true);
        publish(old.announcement());
        byte[] bytes = {0, (byte) 0xff, '"', 42};

        byte[] body = deliverBytes(bytes);

        assertThat(old.calls()).as("the raw form refused, then the JSON form").isEqualTo(2);
        assertThat(old.lastContentType()).isEqualTo("application/json");
        assertThat(sink.received()).hasSize(1);
        assertThat(sink.received().get(0).bytes()).isEqualTo(bytes);
        JsonNode answer = json(body);
        assertThat(answer.get("attempts")).hasSize(1);
        assertThat(answer.get("attempts").get(0).get("outcome").stringValue()).isEqualTo("delivered");
    }

    private byte[] deliverBytes(byte[] bytes) {
        return client().post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of(
                        "tenantId", "acme",
                        "url", hook(),
                        "headers", Map.of("Content-Type", "application/octet-stream"),
                        "bodyBase64", Base64.getEncoder().encodeToString(bytes)))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
    }

    @Test
    void drainingIpStopsReceivingNewDeliveries() {
        BorderDouble a = border("a", "127.0.0.2");
        BorderDouble b = border("b", "127.0.0.3");
        publish(a.announcement(), b.announcement());
        deliver("acme", hook()).expectStatus().isOk().expectBody().returnResult();
        assertThat(peers()).containsExactly("127.0.0.2");

        a.setStatus("127.0.0.2", IpStatus.DRAINING);
        publish(a.announcement(), b.announcement());
        sink.clear();
        for (int i = 0; i < 20; i++) {
            deliver("acme", hook()).expectStatus().isOk().expectBody().returnResult();
        }
        assertThat(peers()).containsExactly("127.0.0.3");
    }

    @Test
    void allOfATenantsIpsDownIs503WithRetryAfterAndNothingLeavesFromOtherIps() throws IOException {
        // beta's only IP is DISABLED; other IPs are ACTIVE and must not be used for beta.
        BorderDouble a = border("a", "127.0.0.4", "127.0.0.2", "127.0.0.8");
        a.setStatus("127.0.0.4", IpStatus.DISABLED);
        publish(a.announcement());

        deliver("beta", hook())
                .expectStatus()
                .isEqualTo(503)
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectHeader()
                .valueEquals("Retry-After", "5")
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:no-egress-available");

        // The IP is ACTIVE, but only on a Border that refuses connections. Border a no longer announces it: while
        // a Border claims a dedicated IP, in any status, a second claim is a conflict (docs/security.md).
        BorderDouble others = border("c", "127.0.0.2", "127.0.0.8");
        publish(others.announcement(), BorderDouble.unreachable("a0-" + SEQ.incrementAndGet(), "127.0.0.4"));
        deliver("beta", hook())
                .expectStatus()
                .isEqualTo(503)
                .expectHeader()
                .exists("Retry-After")
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:no-egress-available")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);

        assertThat(sink.received()).isEmpty();
    }

    @Test
    void aBorderThatRefusesConnectionsIsRetriedOnAnotherBorderWithAnAllowedIp() throws IOException {
        BorderDouble b = border("b", "127.0.0.3");
        // "a0-..." sorts before "b-...": lowest-border-id picks the dead Border first.
        publish(BorderDouble.unreachable("a0-" + SEQ.incrementAndGet(), "127.0.0.2"), b.announcement());

        byte[] body = deliver("acme", hook())
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();

        JsonNode answer = json(body);
        assertThat(answer.get("borderId").stringValue()).isEqualTo(b.id().value());
        assertThat(answer.get("egressIp").stringValue()).isEqualTo("127.0.0.3");
        assertThat(answer.get("attempts")).hasSize(2);
        assertThat(answer.get("attempts").get(0).get("outcome").stringValue()).isEqualTo("border-unreachable");
        assertThat(answer.get("attempts").get(1).get("outcome").stringValue()).isEqualTo("delivered");
        assertThat(peers()).containsExactly("127.0.0.3");
    }

    @Test
    void aBorderAnsweringIpNotActiveWithoutContactIsRetriedElsewhere() {
        BorderDouble a = border("a", "127.0.0.2");
        BorderDouble b = border("b", "127.0.0.3");
        publish(a.announcement(), b.announcement());
        a.failWith(new BorderDouble.Failure(409, "ip-not-active", false));

        deliver("acme", hook())
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.borderId")
                .isEqualTo(b.id().value())
                .jsonPath("$.attempts[0].outcome")
                .isEqualTo("ip-not-active");
        assertThat(peers()).containsExactly("127.0.0.3");
    }

    @Test
    void aTargetThatTimesOutIsNotRetried() {
        BorderDouble a = border("a", "127.0.0.2");
        BorderDouble b = border("b", "127.0.0.3");
        publish(a.announcement(), b.announcement());
        sink.reply(new RecordingSink.Reply(200, "late", Duration.ofSeconds(4), Map.of()));

        deliver("acme", hook())
                .expectStatus()
                .isEqualTo(504)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-timeout")
                .jsonPath("$.attempts.length()")
                .isEqualTo(1);

        assertThat(sink.received()).hasSize(1);
        assertThat(b.calls()).isZero();
    }

    @Test
    void aProblemThatMayHaveReachedTheTargetIsNotRetried() {
        BorderDouble a = border("a", "127.0.0.2");
        BorderDouble b = border("b", "127.0.0.3");
        publish(a.announcement(), b.announcement());
        a.failWith(new BorderDouble.Failure(503, "unavailable", true));

        deliver("acme", hook())
                .expectStatus()
                .isEqualTo(502)
                .expectBody()
                .jsonPath("$.targetContacted")
                .isEqualTo(true);
        assertThat(b.calls()).isZero();

        a.failWith(new BorderDouble.Failure(403, "target-denied", false));
        deliver("acme", hook())
                .expectStatus()
                .isEqualTo(403)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-denied");
        assertThat(b.calls()).isZero();
    }

    @Test
    void aRepeatedIdempotencyKeyReturnsTheFirstOutcomeWithoutSendingAgain() {
        BorderDouble a = border("a", "127.0.0.2");
        publish(a.announcement());
        Map<String, Object> request = Map.of("tenantId", "acme", "url", hook(), "payload", Map.of("n", 1));

        byte[] first = client().post()
                .uri("/v1/deliveries")
                .header("Idempotency-Key", "key-1")
                .bodyValue(request)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        byte[] second = client().post()
                .uri("/v1/deliveries")
                .header("Idempotency-Key", "key-1")
                .bodyValue(request)
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("Idempotent-Replayed", "true")
                .expectBody()
                .returnResult()
                .getResponseBody();

        assertThat(json(second).get("id")).isEqualTo(json(first).get("id"));
        assertThat(sink.received()).hasSize(1);

        client().post()
                .uri("/v1/deliveries")
                .header("Idempotency-Key", "key-1")
                .bodyValue(Map.of("tenantId", "acme", "url", hook(), "payload", Map.of("n", 2)))
                .exchange()
                .expectStatus()
                .isEqualTo(422)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:idempotency-key-reused");
        assertThat(sink.received()).hasSize(1);
    }

    @Test
    void concurrentDuplicatesWaitForTheFirstDelivery() {
        BorderDouble a = border("a", "127.0.0.2");
        publish(a.announcement());
        sink.reply(new RecordingSink.Reply(200, "ok", Duration.ofMillis(500), Map.of()));
        WebClient web = WebClient.builder()
                .baseUrl("http://127.0.0.1:" + port)
                .defaultHeader("Authorization", "Bearer " + API_TOKEN)
                .build();
        Map<String, Object> request = Map.of("tenantId", "acme", "url", hook(), "payload", "same");

        List<String> ids = Flux.range(0, 5)
                .flatMap(i -> web.post()
                        .uri("/v1/deliveries")
                        .header("Idempotency-Key", "concurrent-1")
                        .bodyValue(request)
                        .retrieve()
                        .bodyToMono(byte[].class))
                .map(body -> json(body).get("id").stringValue())
                .collectList()
                .block(Duration.ofSeconds(60));

        assertThat(ids).hasSize(5);
        assertThat(Set.copyOf(ids)).hasSize(1);
        assertThat(sink.received()).hasSize(1);
    }

    @Test
    void anUnknownTenantIs404() {
        deliver("nobody", hook())
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:unknown-tenant");
    }

    @Test
    void aRemovedBorderGetsNoMoreTrafficAndItsConnectionsAndBreakerAreClosed() {
        BorderDouble a = border("a", "127.0.0.2");
        BorderDouble b = border("b", "127.0.0.3");
        publish(a.announcement(), b.announcement());
        deliver("acme", hook())
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.borderId")
                .isEqualTo(a.id().value());
        assertThat(breakerRegistry.find("border-" + a.id().value())).isPresent();
        assertThat(prometheus())
                .contains("resilience4j_circuitbreaker_state{", "name=\"border-" + a.id().value() + "\"");
        await().atMost(Duration.ofSeconds(10)).until(() -> a.openConnections() > 0);
        int callsBefore = a.calls();

        publish(b.announcement());

        await().atMost(Duration.ofSeconds(20)).until(() -> a.openConnections() == 0);
        for (int i = 0; i < 10; i++) {
            deliver("acme", hook())
                    .expectStatus()
                    .isOk()
                    .expectBody()
                    .jsonPath("$.borderId")
                    .isEqualTo(b.id().value());
        }
        assertThat(a.calls()).isEqualTo(callsBefore);
        assertThat(breakerRegistry.find("border-" + a.id().value())).isEmpty();
        assertThat(prometheus()).doesNotContain("name=\"border-" + a.id().value() + "\"");
        assertThat(peers()).contains("127.0.0.3");
    }

    @Test
    void repeatedBorderFailuresEjectItAndPanicModeStillServesWhenAllAreEjected() throws IOException {
        BorderDouble b = border("b", "127.0.0.3");
        var dead = BorderDouble.unreachable("a0-" + SEQ.incrementAndGet(), "127.0.0.2");
        publish(dead, b.announcement());
        for (int i = 0; i < 3; i++) {
            deliver("acme", hook()).expectStatus().isOk().expectBody().returnResult();
        }
        // Ejected after 3 consecutive failures: the next delivery goes straight to the healthy Border.
        deliver("acme", hook())
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.attempts.length()")
                .isEqualTo(1);

        // Only the dead Border is left for acme: panic mode tries it anyway rather than refusing blindly.
        publish(dead);
        deliver("acme", hook())
                .expectStatus()
                .isEqualTo(503)
                .expectBody()
                .jsonPath("$.attempts[0].borderId")
                .isEqualTo(dead.borderId().value());
    }
}
