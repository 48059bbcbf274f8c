package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.AppApplication;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * App's fleet view and fleet-wide IP changes against real Border processes registered in the embedded
 * coordination node: border-a hosts 127.0.0.2 and 127.0.0.6, border-b 127.0.0.6 (a conflict) and .7,
 * border-c 127.0.0.3 (frozen and killed in the last test). Tenant beta is dedicated to 127.0.0.9, which
 * no Border hosts.
 */
@SpringBootTest(classes = AppApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
// The in-process App stops with the class: the platform tests after it in this JVM get the cores to themselves.
@DirtiesContext
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FleetIT {

    private static final String API_TOKEN = "fleet-api-token";
    private static final String INTERNAL_TOKEN = "fleet-internal-token";
    private static final String OPERATOR_TOKEN = "fleet-operator-token";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    static EmbeddedCoordinationNode node;
    static Path tenants;
    static final List<TestBorder> borders = new ArrayList<>();

    @Autowired
    RoutingTable table;

    @LocalServerPort
    int port;

    @BeforeAll
    static void startBorders() throws Exception {
        node = EmbeddedCoordinationNode.start(0);
        tenants = Files.createTempFile("fleet-it", ".yaml");
        Files.writeString(tenants, """
                sharedPool: [127.0.0.6, 127.0.0.7]
                tenants:
                  - id: acme
                    dedicatedIps: [127.0.0.2, 127.0.0.3]
                  - id: beta
                    dedicatedIps: [127.0.0.9]
                  - id: small-co
                """);
        borders.add(TestBorder.start(
                "border-a", List.of("127.0.0.2", "127.0.0.6"), node.connectionString(), INTERNAL_TOKEN));
        borders.add(TestBorder.start(
                "border-b", List.of("127.0.0.6", "127.0.0.7"), node.connectionString(), INTERNAL_TOKEN));
        borders.add(TestBorder.start("border-c", List.of("127.0.0.3"), node.connectionString(), INTERNAL_TOKEN));
        for (TestBorder border : borders) {
            assertThat(border.awaitReadyOrExit())
                    .as("%s ready; log: target/system-logs/%s.log", border.id(), border.id())
                    .isTrue();
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("egress.registry.connection-string", () -> node.connectionString());
        registry.add("egress.tenants.file", () -> tenants.toString());
        registry.add("egress.security.api-tokens", () -> API_TOKEN);
        registry.add("egress.security.internal-token", () -> INTERNAL_TOKEN);
        registry.add("egress.security.operator-token", () -> OPERATOR_TOKEN);
        registry.add("egress.ops.change-timeout", () -> "5s");
        registry.add("egress.security.insecure-local", () -> "true"); // the Borders here run plaintext
    }

    @AfterAll
    static void stopAll() throws Exception {
        for (TestBorder border : borders) {
            border.close();
        }
        if (node != null) {
            node.close();
        }
    }

    private void awaitAllBorders() {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> table.current().announcements().size() == 3);
    }

    private WebTestClient client(String token) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60))
                .defaultHeader("Authorization", "Bearer " + token)
                .build();
    }

    private EntityExchangeResult<byte[]> put(String ip, String status) {
        return client(OPERATOR_TOKEN)
                .put()
                .uri("/ops/v1/ips/" + ip)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("status", status))
                .exchange()
                .expectBody()
                .returnResult();
    }

    private JsonNode fleet() {
        return JSON.readTree(client(OPERATOR_TOKEN)
                .get()
                .uri("/ops/v1/fleet")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
    }

    private Optional<IpStatus> statusInApp(String border, String ip) {
        return Optional.ofNullable(table.current().announcements().get(BorderId.of(border)))
                .flatMap(a -> a.statusOf(EgressIp.of(ip)));
    }

    private static JsonNode ip(JsonNode fleet, String ip) {
        for (JsonNode entry : fleet.get("ips")) {
            if (entry.get("ip").stringValue().equals(ip)) {
                return entry;
            }
        }
        throw new AssertionError("no ip " + ip + " in " + fleet);
    }

    @Test
    @Order(1)
    void fleetViewShowsBordersIpsTenantsConflictsAndTenantsWithoutAUsableIp() {
        awaitAllBorders();
        JsonNode fleet = fleet();

        assertThat(fleet.get("borders"))
                .extracting(b -> b.get("id").stringValue())
                .containsExactly("border-a", "border-b", "border-c");
        JsonNode borderA = fleet.get("borders").get(0);
        assertThat(borderA.get("endpoint").stringValue()).startsWith("http://127.0.0.1:");
        assertThat(borderA.get("generation").asLong()).isGreaterThanOrEqualTo(0);
        assertThat(borderA.get("announcementAgeMillis").asLong()).isGreaterThanOrEqualTo(0);
        assertThat(borderA.get("breaker").stringValue()).isEqualTo("CLOSED");

        JsonNode shared = ip(fleet, "127.0.0.6");
        assertThat(shared.get("conflict").booleanValue()).isTrue();
        assertThat(shared.get("sharedPool").booleanValue()).isTrue();
        assertThat(shared.get("sharedTenants").asInt()).isEqualTo(1);
        assertThat(shared.get("borders"))
                .extracting(b -> b.get("id").stringValue())
                .containsExactly("border-a", "border-b");
        assertThat(shared.get("borders").get(0).has("inFlight")).isTrue();
        assertThat(shared.get("borders").get(0).has("recentErrorRate")).isTrue();
        assertThat(ip(fleet, "127.0.0.2").get("dedicatedTenants"))
                .extracting(JsonNode::stringValue)
                .containsExactly("acme");
        assertThat(ip(fleet, "127.0.0.9").get("status").stringValue()).isEqualTo("ABSENT");
        assertThat(fleet.get("conflicts"))
                .singleElement()
                .satisfies(c -> assertThat(c.get("ip").stringValue()).isEqualTo("127.0.0.6"));
        assertThat(fleet.get("rejected")).isEmpty();
        assertThat(fleet.get("tenantsWithoutUsableIp")).singleElement().satisfies(t -> {
            assertThat(t.get("id").stringValue()).isEqualTo("beta");
            assertThat(t.get("dedicated").booleanValue()).isTrue();
            assertThat(t.get("reason").stringValue()).isEqualTo("no-live-ip");
        });

        String scrape = new String(client(API_TOKEN)
                .get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(scrape)
                .contains(
                        "egress_tenants_without_usable_ip{application=\"app-service\",tenant_class=\"dedicated\"} 1.0")
                .contains("egress_registry_announcements_rejected_latest{application=\"app-service\"} 0.0");
    }

    @Test
    @Order(2)
    void theOperatorApiTakesOnlyTheOperatorTokenAndIsInTheOpenApiDocument() {
        String openApi = new String(client(API_TOKEN)
                .get()
                .uri("/v3/api-docs")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(openApi)
                .contains("/ops/v1/fleet")
                .contains("/ops/v1/ips/{ip}")
                .contains("tenantsWithoutUsableIp");
        client(API_TOKEN)
                .get()
                .uri("/ops/v1/fleet")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .returnResult();
        client(OPERATOR_TOKEN)
                .get()
                .uri("/v1/egress/ips")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .returnResult();
        WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .build()
                .get()
                .uri("/ops/")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .exists("Content-Security-Policy")
                .expectBody()
                .returnResult();
    }

    @Test
    @Order(3)
    void aChangeAnswersOnlyOnceAppsOwnSnapshotShowsIt() {
        awaitAllBorders();
        EntityExchangeResult<byte[]> drained = put("127.0.0.2", "DRAINING");

        // Read the snapshot before anything else: the answer promises App already routes accordingly.
        assertThat(statusInApp("border-a", "127.0.0.2")).contains(IpStatus.DRAINING);
        assertThat(drained.getStatus().value())
                .as(new String(drained.getResponseBody()))
                .isEqualTo(200);
        JsonNode body = JSON.readTree(drained.getResponseBody());
        assertThat(body.get("appliedOn")).extracting(JsonNode::stringValue).containsExactly("border-a");
        assertThat(body.get("conflict").booleanValue()).isFalse();
        assertThat(ip(fleet(), "127.0.0.2").get("status").stringValue()).isEqualTo("DRAINING");

        assertThat(put("127.0.0.2", "ACTIVE").getStatus().value()).isEqualTo(200);
        assertThat(statusInApp("border-a", "127.0.0.2")).contains(IpStatus.ACTIVE);
    }

    @Test
    @Order(3)
    void anIpv4MappedSpellingInTheOperatorApiChangesThatIp() {
        awaitAllBorders();
        EntityExchangeResult<byte[]> drained = put("::ffff:127.0.0.2", "DRAINING");

        assertThat(drained.getStatus().value())
                .as(new String(drained.getResponseBody()))
                .isEqualTo(200);
        assertThat(statusInApp("border-a", "127.0.0.2")).contains(IpStatus.DRAINING);
        assertThat(JSON.readTree(drained.getResponseBody()).get("appliedOn"))
                .extracting(JsonNode::stringValue)
                .containsExactly("border-a");

        assertThat(put("0:0:0:0:0:ffff:7f00:2", "ACTIVE").getStatus().value()).isEqualTo(200);
        assertThat(statusInApp("border-a", "127.0.0.2")).contains(IpStatus.ACTIVE);
    }

    @Test
    @Order(4)
    void anIpOnTwoBordersIsChangedOnBothAndTheAnswerSaysSo() {
        awaitAllBorders();
        EntityExchangeResult<byte[]> disabled = put("127.0.0.6", "DISABLED");

        assertThat(disabled.getStatus().value())
                .as(new String(disabled.getResponseBody()))
                .isEqualTo(200);
        assertThat(statusInApp("border-a", "127.0.0.6")).contains(IpStatus.DISABLED);
        assertThat(statusInApp("border-b", "127.0.0.6")).contains(IpStatus.DISABLED);
        JsonNode body = JSON.readTree(disabled.getResponseBody());
        assertThat(body.get("conflict").booleanValue()).isTrue();
        assertThat(body.get("appliedOn")).extracting(JsonNode::stringValue).containsExactly("border-a", "border-b");
        assertThat(body.get("borders"))
                .extracting(b -> b.get("outcome").stringValue())
                .containsExactly("applied", "applied");

        assertThat(put("127.0.0.6", "ACTIVE").getStatus().value()).isEqualTo(200);
        assertThat(statusInApp("border-b", "127.0.0.6")).contains(IpStatus.ACTIVE);
    }

    @Test
    @Order(5)
    void anOperatorMoveReleasesTheIpOnTheOtherBordersStoresItAndEndsTheConflict() {
        awaitAllBorders();
        EntityExchangeResult<byte[]> notThere = move("127.0.0.6", "border-c");
        assertThat(notThere.getStatus().value()).isEqualTo(404);
        assertThat(new String(notThere.getResponseBody())).contains("does not announce ip '127.0.0.6'");

        EntityExchangeResult<byte[]> moved = move("127.0.0.6", "border-b");

        assertThat(moved.getStatus().value())
                .as(new String(moved.getResponseBody()))
                .isEqualTo(200);
        JsonNode body = JSON.readTree(moved.getResponseBody());
        assertThat(body.get("to").stringValue()).isEqualTo("border-b");
        assertThat(body.get("releasedOn")).extracting(JsonNode::stringValue).containsExactly("border-a");
        assertThat(body.get("borders"))
                .extracting(b -> b.get("id").stringValue() + "="
                        + b.get("status").stringValue() + "/" + b.get("outcome").stringValue())
                .containsExactly("border-a=RELEASED/applied", "border-b=CLAIMED/applied");
        // App's own snapshot already shows it: border-a announces the IP as released, no claim, no conflict.
        assertThat(table.current().conflicts()).doesNotContainKey(EgressIp.of("127.0.0.6"));
        assertThat(table.current().announcements().get(BorderId.of("border-a")).ips())
                .filteredOn(a -> a.ip().equals(EgressIp.of("127.0.0.6")))
                .singleElement()
                .satisfies(a -> assertThat(a.claims()).isFalse());
        assertThat(fleet().get("conflicts")).isEmpty();

        // And back: now border-b releases it and border-a claims it again.
        EntityExchangeResult<byte[]> back = move("127.0.0.6", "border-a");
        assertThat(back.getStatus().value())
                .as(new String(back.getResponseBody()))
                .isEqualTo(200);
        assertThat(JSON.readTree(back.getResponseBody()).get("releasedOn"))
                .extracting(JsonNode::stringValue)
                .containsExactly("border-b");
        assertThat(fleet().get("conflicts")).isEmpty();
    }

    private EntityExchangeResult<byte[]> move(String ip, String to) {
        return client(OPERATOR_TOKEN)
                .post()
                .uri("/ops/v1/ips/" + ip + "/move")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("to", to))
                .exchange()
                .expectBody()
                .returnResult();
    }

    @Test
    @Order(5)
    void anIpNoLiveBorderHostsIs404AndABadStatusIs400() {
        EntityExchangeResult<byte[]> unknown = put("127.0.0.9", "DRAINING");
        assertThat(unknown.getStatus().value()).isEqualTo(404);
        assertThat(new String(unknown.getResponseBody())).contains("urn:egress:problem:ip-not-hosted");

        EntityExchangeResult<byte[]> bad = put("127.0.0.2", "SLEEPING");
        assertThat(bad.getStatus().value()).isEqualTo(400);
        assertThat(new String(bad.getResponseBody())).contains("urn:egress:problem:invalid-request");
    }

    @Test
    @Order(6)
    void aBorderThatDiesMidRequestGives504WithTheCurrentState() throws Exception {
        awaitAllBorders();
        TestBorder borderC = borders.get(2);
        borderC.freeze(); // accepts the connection in the kernel, answers nothing

        CompletableFuture<EntityExchangeResult<byte[]>> answer =
                CompletableFuture.supplyAsync(() -> put("127.0.0.3", "DISABLED"));
        // The frozen Border holds the request: it stays unanswered, then the Border dies with it open.
        await("the change stays unanswered while the Border is frozen")
                .during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(2))
                .until(() -> !answer.isDone());
        borderC.kill();
        EntityExchangeResult<byte[]> result = answer.get();

        assertThat(result.getStatus().value())
                .as(new String(result.getResponseBody()))
                .isEqualTo(504);
        JsonNode problem = JSON.readTree(result.getResponseBody());
        assertThat(problem.get("type").stringValue()).isEqualTo("urn:egress:problem:change-not-confirmed");
        assertThat(problem.get("requested").stringValue()).isEqualTo("DISABLED");
        assertThat(problem.get("appliedOn")).isEmpty();
        JsonNode state = problem.get("borders").get(0);
        assertThat(state.get("id").stringValue()).isEqualTo("border-c");
        assertThat(state.get("outcome").stringValue()).isEqualTo("failed");
        assertThat(state.get("status").stringValue()).isIn("ACTIVE", "ABSENT");

        // Once its session expires the IP has no live host left: a new change is a 404, not a hang.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !table.current().announcements().containsKey(BorderId.of("border-c")));
        assertThat(put("127.0.0.3", "ACTIVE").getStatus().value()).isEqualTo(404);
        assertThat(fleet().get("tenantsWithoutUsableIp"))
                .extracting(t -> t.get("id").stringValue())
                .containsExactly("beta");
    }
}
