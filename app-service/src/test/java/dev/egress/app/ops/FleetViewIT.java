package dev.egress.app.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.support.AppITSupport;
import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.testing.Announcements;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The fleet view's problem lists, fed through the real routing table: rejected announcements with their
 * reasons, and dedicated tenants failing closed once routing data is older than max-staleness.
 */
class FleetViewIT extends AppITSupport {

    private static final String OPERATOR_TOKEN = "view-operator-token";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @DynamicPropertySource
    static void ops(DynamicPropertyRegistry registry) {
        registry.add("egress.security.operator-token", () -> OPERATOR_TOKEN);
        // Long enough that the first view is fresh on a loaded 2-core machine (2 s was not), short for the wait.
        registry.add("egress.routing.max-staleness", () -> "5s");
    }

    private JsonNode fleet() {
        return JSON.readTree(WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .build()
                .get()
                .uri("/ops/v1/fleet")
                .header("Authorization", "Bearer " + OPERATOR_TOKEN)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
    }

    private String scrape() {
        return new String(
                client().get()
                        .uri("/actuator/prometheus")
                        .exchange()
                        .expectStatus()
                        .isOk()
                        .expectBody()
                        .returnResult()
                        .getResponseBody(),
                StandardCharsets.UTF_8);
    }

    private static List<String> ids(JsonNode tenants) {
        List<String> ids = new ArrayList<>();
        tenants.forEach(
                t -> ids.add(t.get("id").stringValue() + ":" + t.get("reason").stringValue()));
        return ids;
    }

    @Test
    void rejectedAnnouncementsAreListedWithTheirReasonsAndCounted() {
        List<byte[]> payloads = new ArrayList<>(Announcements.payloads(Announcements.of(
                "border-a", "http://127.0.0.1:1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.8")));
        payloads.add("{\"version\":1,\"borderId\":\"border-x\"}".getBytes(StandardCharsets.UTF_8));
        offer(RoutingSnapshot.fromPayloads(payloads, new AnnouncementCodec(), Instant.now()));

        JsonNode rejected = fleet().get("rejected");
        assertThat(rejected).singleElement().satisfies(r -> {
            assertThat(r.get("owner").asInt()).isEqualTo(1);
            assertThat(r.get("reason").stringValue()).isNotBlank();
        });
        assertThat(scrape()).contains("egress_registry_announcements_rejected_latest{application=\"app-service\"} 1.0");
    }

    @Test
    void dedicatedTenantsFailClosedInTheViewOnceRoutingIsStaleWhileSharedOnesKeepServing() {
        publish(Announcements.of("border-a", "http://127.0.0.1:1", "127.0.0.2", "127.0.0.3", "127.0.0.8"));
        JsonNode fresh = fleet();
        assertThat(fresh.get("stale").booleanValue()).isFalse();
        assertThat(ids(fresh.get("tenantsWithoutUsableIp"))).containsExactly("beta:no-live-ip");

        // Nothing confirms the snapshot any more (no watcher in this test): it ages past max-staleness.
        await().atMost(Duration.ofSeconds(20)).until(() -> fleet().get("stale").booleanValue());
        assertThat(ids(fleet().get("tenantsWithoutUsableIp")))
                .containsExactly("acme:routing-stale", "beta:routing-stale");
        assertThat(scrape())
                .contains(
                        "egress_tenants_without_usable_ip{application=\"app-service\",tenant_class=\"dedicated\"} 2.0")
                .contains("egress_tenants_without_usable_ip{application=\"app-service\",tenant_class=\"shared\"} 0.0");
    }
}
