package dev.egress.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.support.BorderProcess;
import dev.egress.app.support.TestTrust;
import dev.egress.coordination.EmbeddedCoordinationNode;
import dev.egress.coordination.testing.ListenPorts;
import dev.egress.discovery.BorderId;
import dev.egress.discovery.EgressIp;
import dev.egress.discovery.IpStatus;
import dev.egress.discovery.RoutingTable;
import dev.egress.discovery.testing.RecordingSink;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole system on one machine: the embedded coordination node, three real Borders (border-service
 * fat jar as processes) hosting 127.0.0.2–127.0.0.9, this App (in-process, with the real registry
 * watcher), and a sink on 127.0.0.1 that records the peer address every webhook arrived from.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(OutputCaptureExtension.class)
class SystemIT {

    private static final String API_TOKEN = "system-api-token";
    private static final String INTERNAL_TOKEN = "system-internal-token";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    static EmbeddedCoordinationNode node;
    static RecordingSink sink;
    static BorderProcess borderA;
    static BorderProcess borderB;
    static BorderProcess borderC;
    static Path tenants;

    @Autowired
    RoutingTable table;
    @Autowired
    CircuitBreakerRegistry breakers;
    @LocalServerPort
    int port;

    @BeforeAll
    static void startSystem() throws Exception {
        assertThat(BorderProcess.built()).as("border-service jar at %s", BorderProcess.jar()).isTrue();
        node = EmbeddedCoordinationNode.start(0);
        sink = RecordingSink.start();
        tenants = Files.createTempFile("system-it", ".yaml");
        Files.writeString(tenants, """
                sharedPool: [127.0.0.8, 127.0.0.9]
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.6, 127.0.0.7]
                  - id: beta
                    dedicatedIps: [127.0.0.5]
                  - id: small-co
                """);
        // Start together: three JVMs boot in parallel on the shared cores.
        // On the trust chain: signed announcements, mutual TLS between App and Borders.
        TestTrust trust = TestTrust.shared();
        borderA = BorderProcess.start("border-a", List.of("127.0.0.6", "127.0.0.8", "127.0.0.2"), node.connectionString(),
                INTERNAL_TOKEN, trust, "--egress.limits.response-timeout=2s");
        borderB = BorderProcess.start("border-b", List.of("127.0.0.7", "127.0.0.5", "127.0.0.9"), node.connectionString(),
                INTERNAL_TOKEN, trust, "--egress.limits.response-timeout=2s");
        borderC = BorderProcess.start("border-c", List.of("127.0.0.3", "127.0.0.4"), node.connectionString(), INTERNAL_TOKEN,
                trust);
        borderA = readyOrRestart(borderA);
        borderB = readyOrRestart(borderB);
        borderC = readyOrRestart(borderC);
    }

    /**
     * Waits for a Border to be ready; one that exited during startup (other builds on this machine share
     * the loopback IPs and ports, so a bind can fail transiently) is started again, at most twice.
     */
    private static BorderProcess readyOrRestart(BorderProcess border) throws Exception {
        for (int attempt = 0; ; attempt++) {
            BorderProcess current = border;
            if (current.awaitReadyOrExit() || attempt == 2) {
                assertThat(current.ready()).as("%s ready; log: target/system-it-%s.log", current.id(), current.id()).isTrue();
                return current;
            }
            border = current.restart();
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("egress.registry.connection-string", () -> node.connectionString());
        registry.add("egress.tenants.file", () -> tenants.toString());
        registry.add("egress.security.api-tokens", () -> API_TOKEN);
        registry.add("egress.security.internal-token", () -> INTERNAL_TOKEN);
        registry.add("egress.dispatch.attempt-timeout", () -> "10s");
        TestTrust.shared().appProperties(registry);
    }

    @AfterAll
    static void stopSystem() throws Exception {
        for (BorderProcess border : new BorderProcess[] {borderA, borderB, borderC}) {
            if (border != null) {
                border.close();
            }
        }
        if (sink != null) {
            sink.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @BeforeEach
    void waitForRoutes() {
        sink.clear();
        sink.reply(RecordingSink.Reply.ok());
        await().atMost(Duration.ofSeconds(60)).until(() -> table.isReady()
                && table.current().announcements().size() >= (borderA.alive() ? 3 : 2));
    }

    private WebTestClient client() {
        return WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port).responseTimeout(Duration.ofSeconds(60))
                .defaultHeader("Authorization", "Bearer " + API_TOKEN).build();
    }

    private WebTestClient.ResponseSpec deliver(String tenant) {
        return client().post().uri("/v1/deliveries").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("tenantId", tenant, "url", sink.baseUri() + "/hook", "payload", Map.of("n", 1)))
                .exchange();
    }

    private Set<String> peers() {
        return sink.received().stream().map(r -> r.peer().getHostAddress()).collect(Collectors.toSet());
    }

    private Optional<IpStatus> statusInApp(String border, String ip) {
        return Optional.ofNullable(table.current().announcements().get(BorderId.of(border)))
                .flatMap(a -> a.statusOf(EgressIp.of(ip)));
    }

    @Test
    @Order(1)
    void hundredDedicatedDeliveriesLeaveOnlyFromTheTenantsIpsAndSharedOnlyFromThePool() {
        for (int i = 0; i < 100; i++) {
            deliver("acme").expectStatus().isOk().expectBody().returnResult();
        }
        assertThat(sink.received()).hasSize(100);
        assertThat(peers()).isNotEmpty().isSubsetOf("127.0.0.6", "127.0.0.7");

        sink.clear();
        for (int i = 0; i < 100; i++) {
            deliver("small-co").expectStatus().isOk().expectBody().returnResult();
        }
        assertThat(sink.received()).hasSize(100);
        assertThat(peers()).isNotEmpty().isSubsetOf("127.0.0.8", "127.0.0.9");

        client().get().uri("/v1/egress/ips").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.ips.length()").isEqualTo(8);
        client().get().uri("/v1/tenants/acme/egress").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.available").isEqualTo(true);
    }

    @Test
    @Order(2)
    void anIpSetDrainingStopsReceivingOnceTheChangePropagates() throws Exception {
        deliver("acme").expectStatus().isOk().expectBody().jsonPath("$.egressIp").isEqualTo("127.0.0.6");

        assertThat(borderA.setStatus("127.0.0.6", "DRAINING")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> statusInApp("border-a", "127.0.0.6").equals(Optional.of(IpStatus.DRAINING)));
        sink.clear();
        for (int i = 0; i < 20; i++) {
            deliver("acme").expectStatus().isOk().expectBody().returnResult();
        }
        assertThat(peers()).containsExactly("127.0.0.7");

        assertThat(borderA.setStatus("127.0.0.6", "ACTIVE")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> statusInApp("border-a", "127.0.0.6").equals(Optional.of(IpStatus.ACTIVE)));
    }

    @Test
    @Order(3)
    void allOfATenantsIpsDownIs503WithRetryAfterAndNothingLeaves() throws Exception {
        assertThat(borderB.setStatus("127.0.0.5", "DISABLED")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> statusInApp("border-b", "127.0.0.5").equals(Optional.of(IpStatus.DISABLED)));

        for (int i = 0; i < 5; i++) {
            deliver("beta").expectStatus().isEqualTo(503).expectHeader().exists("Retry-After")
                    .expectBody().jsonPath("$.type").isEqualTo("urn:egress:problem:no-egress-available");
        }
        assertThat(sink.received()).isEmpty();

        assertThat(borderB.setStatus("127.0.0.5", "ACTIVE")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> statusInApp("border-b", "127.0.0.5").equals(Optional.of(IpStatus.ACTIVE)));
        deliver("beta").expectStatus().isOk().expectBody().jsonPath("$.egressIp").isEqualTo("127.0.0.5");
        assertThat(peers()).containsExactly("127.0.0.5");
    }

    @Test
    @Order(4)
    void aTargetThatTimesOutIsNotRetried() {
        sink.reply(new RecordingSink.Reply(200, "late", Duration.ofSeconds(4), Map.of()));

        deliver("acme").expectStatus().isEqualTo(504)
                .expectBody().jsonPath("$.type").isEqualTo("urn:egress:problem:target-timeout")
                .jsonPath("$.attempts.length()").isEqualTo(1);

        assertThat(sink.received()).hasSize(1);
    }

    @Test
    @Order(4)
    void aTargetThatRefusesTheConnectionIsNamedInTheUsersWordsWithTheCauseApart() throws Exception {
        int closed = ListenPorts.nothingListening();
        client().post().uri("/v1/deliveries").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("tenantId", "acme", "url", "http://127.0.0.1:" + closed + "/hook", "payload", Map.of()))
                .exchange().expectStatus().isEqualTo(502)
                .expectBody().jsonPath("$.type").isEqualTo("urn:egress:problem:target-unreachable")
                .jsonPath("$.reason").isEqualTo("connection-refused")
                .jsonPath("$.targetContacted").isEqualTo(false)
                .jsonPath("$.detail").value(detail -> assertThat((String) detail)
                        .startsWith("the target refused the connection").doesNotContain("finishConnect"));
    }

    @Test
    @Order(4)
    void refusedTargetsAreLoggedWithTenantAndReasonAtMostOncePerInterval(CapturedOutput output) {
        // Port 80 of 127.0.0.1 is outside the Borders' allowed 127.0.0.1/32:1024-65535: vetted, never connected.
        for (int i = 0; i < 5; i++) {
            client().post().uri("/v1/deliveries").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("tenantId", "acme", "url", "http://127.0.0.1:80/probe-" + i, "payload", Map.of()))
                    .exchange().expectStatus().isForbidden()
                    .expectBody().jsonPath("$.type").isEqualTo("urn:egress:problem:target-denied");
        }

        List<String> lines = output.getAll().lines().filter(l -> l.contains("Refused webhook target for tenant 'acme'")).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).contains("DENIED_RANGE");
        assertThat(sink.received()).noneMatch(r -> r.path().startsWith("/probe-"));
    }

    @Test
    @Order(5)
    void aBorderThatRefusesConnectionsIsRetriedOnAnotherBorderAndLeavesWithItsSession() throws Exception {
        deliver("acme").expectStatus().isOk().expectBody().jsonPath("$.borderId").isEqualTo("border-a");
        assertThat(breakers.find("border-border-a")).isPresent();

        borderA.kill(); // its slot lives on until the session times out: App still routes to it
        sink.clear();
        byte[] body = deliver("acme").expectStatus().isOk().expectBody().returnResult().getResponseBody();
        JsonNode answer = JSON.readTree(body);
        assertThat(answer.get("borderId").stringValue()).isEqualTo("border-b");
        assertThat(answer.get("egressIp").stringValue()).isEqualTo("127.0.0.7");
        assertThat(peers()).containsExactly("127.0.0.7");

        await().atMost(Duration.ofSeconds(60)).until(() -> !table.current().announcements().containsKey(BorderId.of("border-a")));
        assertThat(breakers.find("border-border-a")).isEmpty();
        for (int i = 0; i < 10; i++) {
            deliver("acme").expectStatus().isOk().expectBody().jsonPath("$.attempts.length()").isEqualTo(1);
        }
        assertThat(peers()).containsExactly("127.0.0.7");
    }
}
