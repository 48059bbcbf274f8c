package dev.egress.app.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.delivery.Attempt;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.NewDelivery;
import dev.egress.app.delivery.NextAttempt;
import dev.egress.app.delivery.OwnedBuckets;
import dev.egress.app.delivery.buckets.BucketOwnership;
import dev.egress.app.delivery.buckets.BucketSettings;
import dev.egress.app.support.AppITSupport;
import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Durable delivery in the operators' view, with the store on the real embedded node: the fleet API lists each
 * tenant's due and dead webhooks from the last count, the gauges say the same (every tenant of the tenants file has a
 * series), and the App holds its share of the buckets beside another App.
 */
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Import(FleetDurableViewIT.Store.class)
class FleetDurableViewIT extends AppITSupport {

    private static final String OPERATOR_TOKEN = "durable-operator-token";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static EmbeddedCoordinationNode node;

    @DynamicPropertySource
    static void durable(DynamicPropertyRegistry registry) {
        node = EmbeddedCoordinationNode.start(0);
        registry.add("egress.security.operator-token", () -> OPERATOR_TOKEN);
        registry.add("egress.delivery.store.connection-string", node::connectionString);
        registry.add("egress.delivery.buckets.count", () -> "4");
        registry.add("egress.delivery.buckets.check-interval", () -> "200ms");
        registry.add("egress.delivery.backlog.sample-interval", () -> "200ms");
    }

    /**
     * The node as a bean of the App's context, closed after everything that uses it (so the App stops its session and
     * store while the node is up); the store is the App's own, wired from {@code egress.delivery.store.*}.
     * Imported, not a nested configuration: component scans of other tests must not find it.
     */
    static class Store {
        @Bean(destroyMethod = "close")
        EmbeddedCoordinationNode testNode() {
            return node;
        }

        @Bean
        static BeanFactoryPostProcessor closeTheNodeLast() {
            return factory -> {
                for (String user : new String[] {"bucketOwnership", "backlogSampler", "deliveryTables"}) {
                    factory.getBeanDefinition(user).setDependsOn("testNode");
                }
            };
        }
    }

    @Autowired
    private DeliveryStore store;

    @Autowired
    private OwnedBuckets owned;

    private BucketOwnership other;

    @AfterEach
    void stopTheOtherApp() {
        if (other != null) {
            other.close();
        }
    }

    @Test
    void theFleetViewAndTheGaugesShowEachTenantsDueAndDeadWebhooks() {
        // Another App holds half of the buckets; the due webhook sits in one of them, so this App's workers never
        // claim it, yet the count is fleet-wide and shows it.
        other = BucketOwnership.start(new BucketSettings(
                node.connectionString(),
                null,
                "egress-delivery",
                4,
                "zz-other-app",
                Duration.ofSeconds(2),
                Duration.ofMillis(200)));
        await().atMost(Duration.ofSeconds(20)).until(() -> other.current().length == 2 && owned.current().length == 2);
        Instant now = Instant.now();
        DeliveryRecord due = accept("acme", other.current()[0], now.minusSeconds(120));
        DeliveryRecord dead = accept("acme", 1, now.minusSeconds(120));
        DeliveryRecord later = accept("beta", 2, now.minusSeconds(120));
        store.recordAttempt(due.key(), "app-1", attempt(now), new NextAttempt.At(2, now.minusSeconds(60)), now);
        store.recordAttempt(dead.key(), "app-1", attempt(now), new NextAttempt.Dead(true), now);
        store.recordAttempt(later.key(), "app-1", attempt(now), new NextAttempt.At(2, now.plusSeconds(3600)), now);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonNode durable = fleet().get("durable");
            assertThat(durable.isObject()).as("durable: %s", durable).isTrue();
            assertThat(durable.get("tenants").toString()).isEqualTo("[{\"id\":\"acme\",\"due\":1,\"dead\":1}]");
            assertThat(durable.get("oldestDueAgeSeconds").asLong()).isGreaterThanOrEqualTo(60);
            assertThat(durable.get("complete").booleanValue()).isTrue();
        });
        assertThat(scrape())
                .contains("egress_durable_backlog{application=\"app-service\",tenant=\"acme\"} 1.0")
                .contains("egress_durable_backlog{application=\"app-service\",tenant=\"beta\"} 0.0")
                .contains("egress_durable_dead_stored{application=\"app-service\",tenant=\"acme\"} 1.0")
                .contains("egress_durable_buckets_owned{application=\"app-service\"} 2.0");
    }

    private DeliveryRecord accept(String tenant, int bucket, Instant at) {
        return store.accept(
                        new NewDelivery(UUID.randomUUID().toString(), tenant, null, "f", new byte[] {1}, bucket),
                        "app-1",
                        at,
                        Duration.ofMinutes(10))
                .record();
    }

    private static Attempt attempt(Instant at) {
        return new Attempt(at, "127.0.0.2", "border-a", "retry", null, 503, Duration.ofMillis(3), null);
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
}
