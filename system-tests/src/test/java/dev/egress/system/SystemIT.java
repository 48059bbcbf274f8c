package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.web.testing.RecordingSink;
import dev.egress.ydb.coordination.testing.ListenPorts;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * The whole system on one machine, as real processes on the trust chain: the embedded coordination node,
 * three Borders hosting 127.0.0.2–127.0.0.9, one App, and a sink on 127.0.0.1 that records the peer
 * address every webhook arrived from. What the App sees is read from its own APIs and its log.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SystemIT {

    private static final String PROBLEM = "urn:egress:problem:";

    /** border-a and border-b give up on a target after 2 s; the App's attempt waits up to 10 s. */
    static final Platform.Layout LAYOUT = new Platform.Layout(
            borders(),
            """
            sharedPool: [127.0.0.8, 127.0.0.9]
            tenants:
              - id: acme
                dedicatedIps: [127.0.0.6, 127.0.0.7]
              - id: beta
                dedicatedIps: [127.0.0.5]
              - id: small-co
            """,
            1,
            List.of("--egress.limits.response-timeout=2s"),
            List.of("--egress.dispatch.attempt-timeout=10s"));

    private Platform platform;
    private RecordingSink sink;

    private static Map<String, List<String>> borders() {
        Map<String, List<String>> borders = new LinkedHashMap<>();
        borders.put("border-a", List.of("127.0.0.6", "127.0.0.8", "127.0.0.2"));
        borders.put("border-b", List.of("127.0.0.7", "127.0.0.5", "127.0.0.9"));
        borders.put("border-c", List.of("127.0.0.3", "127.0.0.4"));
        return borders;
    }

    @BeforeAll
    void startSystem() throws Exception {
        sink = RecordingSink.start();
        platform = Platform.start(LAYOUT);
    }

    @AfterAll
    void stopSystem() {
        if (platform != null) {
            platform.close();
        }
        if (sink != null) {
            sink.close();
        }
    }

    @BeforeEach
    void waitForRoutes() {
        sink.clear();
        sink.reply(RecordingSink.Reply.ok());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> platform.liveBorders(0).size()
                        >= (platform.borders.get("border-a").isAlive() ? 3 : 2));
    }

    private Http.Response deliver(String tenant) {
        return deliverTo(tenant, sink.baseUri() + "/hook", "{\"n\":1}");
    }

    private Http.Response deliverTo(String tenant, String url, String payload) {
        return platform.http.post(
                platform.appUri(0, "/v1/deliveries"),
                Platform.API_TOKEN,
                "{\"tenantId\":\"" + tenant + "\",\"url\":\"" + url + "\",\"payload\":" + payload + "}");
    }

    private Http.Response get(String path) {
        return platform.http.get(platform.appUri(0, path), Platform.API_TOKEN);
    }

    private int setStatus(String border, String ip, String status) {
        return platform.http
                .put(
                        platform.borderUri(border, "/ops/v1/ips/" + ip),
                        Platform.OPERATOR_TOKEN,
                        "{\"status\":\"" + status + "\"}")
                .status();
    }

    private Set<String> peers() {
        return sink.received().stream().map(r -> r.peer().getHostAddress()).collect(Collectors.toSet());
    }

    private Optional<String> statusInApp(String border, String ip) {
        return Optional.ofNullable(platform.statusSeenByApp(0, ip, border));
    }

    /** Whether the App holds a circuit breaker for a Border: its state meter exists exactly as long as the breaker. */
    private boolean hasBreaker(String border) {
        return get("/actuator/metrics/resilience4j.circuitbreaker.state?tag=name:border-" + border)
                        .status()
                == 200;
    }

    private static String text(Http.Response response, String field) {
        JsonNode node = response.json() == null ? null : response.json().get(field);
        return node == null ? null : node.asString();
    }

    private static void assertProblem(Http.Response response, int status, String slug) {
        assertThat(response.status()).as(response.text()).isEqualTo(status);
        assertThat(text(response, "type")).as(response.text()).isEqualTo(PROBLEM + slug);
    }

    private static void assertOk(Http.Response response) {
        assertThat(response.status()).as(response.text()).isEqualTo(200);
    }

    @Test
    @Order(1)
    void hundredDedicatedDeliveriesLeaveOnlyFromTheTenantsIpsAndSharedOnlyFromThePool() {
        for (int i = 0; i < 100; i++) {
            assertOk(deliver("acme"));
        }
        assertThat(sink.received()).hasSize(100);
        assertThat(peers()).isNotEmpty().isSubsetOf("127.0.0.6", "127.0.0.7");

        sink.clear();
        for (int i = 0; i < 100; i++) {
            assertOk(deliver("small-co"));
        }
        assertThat(sink.received()).hasSize(100);
        assertThat(peers()).isNotEmpty().isSubsetOf("127.0.0.8", "127.0.0.9");

        Http.Response ips = get("/v1/egress/ips");
        assertOk(ips);
        assertThat(ips.json().get("ips").size()).isEqualTo(8);
        Http.Response acme = get("/v1/tenants/acme/egress");
        assertOk(acme);
        assertThat(acme.json().get("available").asBoolean()).isTrue();
    }

    @Test
    @Order(2)
    void anIpSetDrainingStopsReceivingOnceTheChangePropagates() {
        Http.Response first = deliver("acme");
        assertOk(first);
        assertThat(text(first, "egressIp")).isEqualTo("127.0.0.6");

        assertThat(setStatus("border-a", "127.0.0.6", "DRAINING")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> statusInApp("border-a", "127.0.0.6").equals(Optional.of("DRAINING")));
        sink.clear();
        for (int i = 0; i < 20; i++) {
            assertOk(deliver("acme"));
        }
        assertThat(peers()).containsExactly("127.0.0.7");

        assertThat(setStatus("border-a", "127.0.0.6", "ACTIVE")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> statusInApp("border-a", "127.0.0.6").equals(Optional.of("ACTIVE")));
    }

    @Test
    @Order(3)
    void allOfATenantsIpsDownIs503WithRetryAfterAndNothingLeaves() {
        assertThat(setStatus("border-b", "127.0.0.5", "DISABLED")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> statusInApp("border-b", "127.0.0.5").equals(Optional.of("DISABLED")));

        for (int i = 0; i < 5; i++) {
            Http.Response refused = deliver("beta");
            assertProblem(refused, 503, "no-egress-available");
            assertThat(refused.retryAfter()).isNotNull();
        }
        assertThat(sink.received()).isEmpty();

        assertThat(setStatus("border-b", "127.0.0.5", "ACTIVE")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> statusInApp("border-b", "127.0.0.5").equals(Optional.of("ACTIVE")));
        Http.Response delivered = deliver("beta");
        assertOk(delivered);
        assertThat(text(delivered, "egressIp")).isEqualTo("127.0.0.5");
        assertThat(peers()).containsExactly("127.0.0.5");
    }

    @Test
    @Order(4)
    void aTargetThatTimesOutIsNotRetried() {
        sink.reply(new RecordingSink.Reply(200, "late", Duration.ofSeconds(4), Map.of()));

        Http.Response late = deliver("acme");
        assertProblem(late, 504, "target-timeout");
        assertThat(late.json().get("attempts").size()).isEqualTo(1);

        assertThat(sink.received()).hasSize(1);
    }

    @Test
    @Order(4)
    void aTargetThatRefusesTheConnectionIsNamedInTheUsersWordsWithTheCauseApart() {
        int closed = ListenPorts.nothingListening();
        Http.Response refused = deliverTo("acme", "http://127.0.0.1:" + closed + "/hook", "{}");
        assertProblem(refused, 502, "target-unreachable");
        assertThat(text(refused, "reason")).isEqualTo("connection-refused");
        assertThat(refused.json().get("targetContacted").asBoolean()).isFalse();
        assertThat(refused.json().get("targetContacted").isBoolean()).isTrue();
        assertThat(text(refused, "detail"))
                .startsWith("the target refused the connection")
                .doesNotContain("finishConnect");
    }

    @Test
    @Order(4)
    void refusedTargetsAreLoggedWithTenantAndReasonAtMostOncePerInterval() {
        ServiceProcess app = platform.apps.get(0);
        int logBefore = app.logText().length();
        // Port 80 of 127.0.0.1 is outside the Borders' allowed 127.0.0.1/32:1024-65535: vetted, never connected.
        for (int i = 0; i < 5; i++) {
            assertProblem(deliverTo("acme", "http://127.0.0.1:80/probe-" + i, "{}"), 403, "target-denied");
        }

        List<String> lines = app.logText()
                .substring(logBefore)
                .lines()
                .filter(l -> l.contains("Refused webhook target for tenant 'acme'"))
                .toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).contains("DENIED_RANGE");
        assertThat(sink.received()).noneMatch(r -> r.path().startsWith("/probe-"));
    }

    @Test
    @Order(5)
    void aBorderThatRefusesConnectionsIsRetriedOnAnotherBorderAndLeavesWithItsSession() {
        Http.Response first = deliver("acme");
        assertOk(first);
        assertThat(text(first, "borderId")).isEqualTo("border-a");
        assertThat(hasBreaker("border-a")).isTrue();

        ServiceProcess borderA = platform.borders.get("border-a");
        borderA.kill(); // its slot lives on until the session times out: App still routes to it
        assertThat(borderA.awaitExit(Duration.ofSeconds(30))).isTrue();
        sink.clear();
        Http.Response answer = deliver("acme");
        assertOk(answer);
        assertThat(text(answer, "borderId")).isEqualTo("border-b");
        assertThat(text(answer, "egressIp")).isEqualTo("127.0.0.7");
        assertThat(peers()).containsExactly("127.0.0.7");

        await().atMost(Duration.ofSeconds(60))
                .until(() -> !platform.liveBorders(0).contains("border-a"));
        // The breaker goes in a snapshot listener, just after the swap the status API already shows.
        await("border-a's breaker removed").atMost(Duration.ofSeconds(10)).until(() -> !hasBreaker("border-a"));
        for (int i = 0; i < 10; i++) {
            Http.Response next = deliver("acme");
            assertOk(next);
            assertThat(next.json().get("attempts").size()).isEqualTo(1);
        }
        assertThat(peers()).containsExactly("127.0.0.7");
    }
}
