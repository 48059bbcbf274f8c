package dev.egress.app.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.AppApplication;
import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.app.support.DurableApps;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.web.testing.RecordingSink;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The standing claims stored for every App (the claims table on the durable-delivery store): two Apps (this test's
 * context and one started during the test) on one real embedded YDB node, a Border double for the second claimant,
 * a loopback receiver. An App that starts while the owner of a dedicated IP is absent learns its claim from the table,
 * and an operator's move through that App ends the absent owner's claim on the other App too; a move the table
 * cannot record answers 503.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StoredClaimsIT {

    private static final String OPERATOR_TOKEN = "claims-operator-token";
    private static final EgressIp IP = EgressIp.of("127.0.0.3");
    private static final String PREFIX = "claims" + UUID.randomUUID().toString().substring(0, 8) + "_";
    private static final Path DIR = DurableApps.tenantsDir("stored-claims", "127.0.0.3");
    private static EmbeddedCoordinationNode node;
    private static ConfigurableApplicationContext second;

    /** Both Apps' settings: the same store and table prefix, a short sync interval. */
    private static Map<String, String> settings() {
        Map<String, String> settings = DurableApps.settings(DIR, node.connectionString(), PREFIX);
        settings.put("egress.security.operator-token", OPERATOR_TOKEN);
        settings.put("egress.routing.claims-sync-interval", "200ms");
        return settings;
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws Exception {
        node = EmbeddedCoordinationNode.start(0);
        settings().forEach((name, value) -> registry.add(name, () -> value));
        registry.add("egress.delivery.worker-id", () -> "app-1");
    }

    @AfterAll
    static void stopAll() throws Exception {
        if (second != null) {
            second.close();
            second = null;
        }
        node.close();
    }

    @Autowired
    RoutingTable table;

    @Autowired
    EgressRouter router;

    @Autowired
    ClaimRecords claims;

    @LocalServerPort
    int port;

    private static ConfigurableApplicationContext startSecondApp() {
        Map<String, String> settings = settings();
        settings.put("egress.delivery.worker-id", "app-2");
        settings.put("server.port", "0");
        // As arguments: above application.yml, as the test context's dynamic properties are.
        String[] args = settings.entrySet().stream()
                .map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        return new SpringApplicationBuilder(AppApplication.class).run(args);
    }

    private static WebTestClient client(int appPort, String token) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + appPort)
                .responseTimeout(Duration.ofSeconds(30))
                .defaultHeader("Authorization", "Bearer " + token)
                .build();
    }

    private static WebTestClient.ResponseSpec deliver(int appPort, RecordingSink sink) {
        return client(appPort, AppITSupport.API_TOKEN)
                .post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("tenantId", "acme", "url", sink.baseUri() + "/hook", "payload", Map.of("n", 1)))
                .exchange();
    }

    private static RoutingSnapshot snapshot(Announcement... live) {
        return RoutingSnapshot.fromAnnouncements(List.of(live), Instant.now());
    }

    @Test
    void anAppStartedWhileTheOwnerIsAbsentFailsClosedAndAMoveThroughItEndsTheClaimOnEveryApp() throws Exception {
        BorderId owner = BorderId.of("border-a");
        // App 1 sees the owner, border-a, claim acme's dedicated IP; then border-a goes away (crashed, or retired).
        table.offer(snapshot(BorderDouble.unreachable(owner.value(), IP.value())));
        await().atMost(Duration.ofSeconds(10)).until(() -> claims.readAll().contains(new Claim(IP, owner)));
        table.offer(snapshot());

        try (BorderDouble claimant = BorderDouble.start(
                        "border-b", AppITSupport.INTERNAL_TOKEN, Duration.ofSeconds(10), IP.value());
                RecordingSink sink = RecordingSink.start()) {
            // A new App starts on the same store while border-a is absent; border-b, whose certificate also names
            // the IP, announces it. Without the table App 2 would know only border-b's claim and route acme there.
            second = startSecondApp();
            int secondPort = Integer.parseInt(second.getEnvironment().getProperty("local.server.port"));
            Announcement b = claimant.announcement();
            second.getBean(RoutingTable.class).offer(snapshot(b));
            table.offer(snapshot(b));

            deliver(secondPort, sink)
                    .expectStatus()
                    .isEqualTo(503)
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:no-egress-available")
                    .jsonPath("$.reason")
                    .isEqualTo("ip-conflict");
            assertThat(second.getBean(EgressRouter.class).conflicts()).containsEntry(IP, List.of(owner, claimant.id()));
            assertThat(router.conflicts()).containsEntry(IP, List.of(owner, claimant.id()));
            assertThat(claimant.calls()).isZero();

            // The operator moves the IP to border-b through App 2.
            client(secondPort, OPERATOR_TOKEN)
                    .post()
                    .uri("/ops/v1/ips/{ip}/move", IP.value())
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("to", claimant.id().value()))
                    .exchange()
                    .expectStatus()
                    .isOk();

            assertThat(claims.readAll()).containsExactly(new Claim(IP, claimant.id()));
            deliver(secondPort, sink)
                    .expectStatus()
                    .isOk()
                    .expectBody()
                    .jsonPath("$.egressIp")
                    .isEqualTo(IP.value());
            // App 1 still remembers border-a from before it left; the table tells it that the claim ended.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> router.conflicts().isEmpty());
            deliver(port, sink)
                    .expectStatus()
                    .isOk()
                    .expectBody()
                    .jsonPath("$.egressIp")
                    .isEqualTo(IP.value());
            assertThat(sink.received()).hasSize(2);
            assertThat(claims.readAll()).containsExactly(new Claim(IP, claimant.id()));

            // The table unreachable (the store's node stopped): a move the Borders apply is not stored, so it
            // answers 503 rather than 200.
            node.close();
            client(secondPort, OPERATOR_TOKEN)
                    .post()
                    .uri("/ops/v1/ips/{ip}/move", IP.value())
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("to", claimant.id().value()))
                    .exchange()
                    .expectStatus()
                    .isEqualTo(503)
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:unavailable")
                    .jsonPath("$.to")
                    .isEqualTo(claimant.id().value())
                    .jsonPath("$.borders[0].outcome")
                    .isEqualTo("applied");
        }
    }
}
