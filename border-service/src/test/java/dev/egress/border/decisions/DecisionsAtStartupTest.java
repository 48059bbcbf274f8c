package dev.egress.border.decisions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.border.BorderApplication;
import dev.egress.border.testing.InMemoryBorderRegistry;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A whole Border (real server, registry double) starting on top of a stored decision record: the first
 * announcement already carries the stored decisions, and an unreadable record starts every IP DISABLED.
 */
class DecisionsAtStartupTest {

    private static final EgressIp IP2 = EgressIp.of("127.0.0.2");
    private static final EgressIp IP3 = EgressIp.of("127.0.0.3");

    @Test
    void theFirstAnnouncementCarriesTheStoredDecisions() {
        InMemoryBorderRegistry registry = new InMemoryBorderRegistry();
        registry.decisions()
                .preset(bytes("{\"version\":1,\"borderId\":\"border-start\",\"decisions\":"
                        + "{\"127.0.0.3\":\"DISABLED\",\"127.0.0.6\":\"DISABLED\"}}"));
        try (ConfigurableApplicationContext border = start(registry)) {
            Announcement first = firstPublished(registry);
            assertThat(first.statusOf(IP3)).contains(IpStatus.DISABLED);
            assertThat(first.statusOf(IP2)).contains(IpStatus.ACTIVE);
            readiness(border)
                    .jsonPath("$.components.decisions.details.state")
                    .isEqualTo("RESTORED")
                    .jsonPath("$.status")
                    .isEqualTo("UP");
        }
    }

    @Test
    void aReleasedIpStaysReleasedFromTheFirstAnnouncement() {
        // An operator moved 127.0.0.3 away: after a restart this Border must not claim it again, even briefly.
        InMemoryBorderRegistry registry = new InMemoryBorderRegistry();
        registry.decisions()
                .preset(bytes("{\"version\":1,\"borderId\":\"border-start\",\"decisions\":{},"
                        + "\"released\":[\"127.0.0.3\"]}"));
        try (ConfigurableApplicationContext border = start(registry)) {
            Announcement first = firstPublished(registry);
            assertThat(first.ips())
                    .filteredOn(ip -> ip.ip().equals(IP3))
                    .singleElement()
                    .satisfies(ip -> {
                        assertThat(ip.claims()).isFalse();
                        assertThat(ip.status()).isEqualTo(IpStatus.DISABLED);
                    });
            assertThat(first.statusOf(IP2)).contains(IpStatus.ACTIVE);
        }
    }

    @Test
    void aCorruptRecordStartsEveryIpDisabledUntilAnOperatorSetsIt() {
        InMemoryBorderRegistry registry = new InMemoryBorderRegistry();
        registry.decisions().preset(bytes("{\"version\":1,\"borderId\":\"border-start\",\"decisions\":{\"127.0.0.3\""));
        try (ConfigurableApplicationContext border = start(registry)) {
            Announcement first = firstPublished(registry);
            assertThat(first.ips()).allSatisfy(ip -> assertThat(ip.status()).isEqualTo(IpStatus.DISABLED));
            // Not Ready: a rollout that waits for Ready stops on this Border instead of carrying on.
            readiness(border)
                    .jsonPath("$.status")
                    .isEqualTo("DOWN")
                    .jsonPath("$.components.decisions.details.everyIpDisabled")
                    .isEqualTo(true)
                    .jsonPath("$.components.decisions.details.state")
                    .isEqualTo("FAIL_CLOSED")
                    .jsonPath("$.components.decisions.details.reason")
                    .value(reason -> assertThat((String) reason).startsWith("the stored record is unreadable"));

            web(border)
                    .put()
                    .uri("/ops/v1/ips/{ip}", "127.0.0.2")
                    .header("Authorization", "Bearer " + Tokens.OPERATOR)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("status", "ACTIVE"))
                    .exchange()
                    .expectStatus()
                    .isOk();

            assertThat(registry.held().statusOf(IP2)).contains(IpStatus.ACTIVE);
            assertThat(registry.held().statusOf(IP3)).contains(IpStatus.DISABLED);
            // What runs is what is stored: the other IP stays DISABLED across the next restart too.
            assertThat(new String(registry.decisions().stored(), StandardCharsets.UTF_8))
                    .isEqualTo("{\"version\":1,\"borderId\":\"border-start\",\"decisions\":"
                            + "{\"127.0.0.2\":\"ACTIVE\",\"127.0.0.3\":\"DISABLED\"},\"sequence\":1}");
            readiness(border)
                    .jsonPath("$.components.decisions.details.state")
                    .isEqualTo("STORED")
                    .jsonPath("$.status")
                    .isEqualTo("UP");
        }
    }

    @Test
    void aDeletedRecordOfABorderThatRemembersStoringOneStartsEveryIpDisabled(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("decisions-state.json");
        InMemoryBorderRegistry registry = new InMemoryBorderRegistry();
        try (ConfigurableApplicationContext border = start(registry, "--egress.decisions.state-file=" + state)) {
            web(border)
                    .put()
                    .uri("/ops/v1/ips/{ip}", "127.0.0.3")
                    .header("Authorization", "Bearer " + Tokens.OPERATOR)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("status", "DISABLED"))
                    .exchange()
                    .expectStatus()
                    .isOk();
        }
        assertThat(Files.readString(state)).isEqualTo("{\"borderId\":\"border-start\",\"sequence\":1}\n");
        assertThat(new String(registry.decisions().stored(), StandardCharsets.UTF_8))
                .contains("\"sequence\":1");

        // A registry writer deletes the record (a registry without it): without the state file this Border would
        // start every IP ACTIVE.
        InMemoryBorderRegistry restarted = new InMemoryBorderRegistry();
        try (ConfigurableApplicationContext border = start(restarted, "--egress.decisions.state-file=" + state)) {
            assertThat(firstPublished(restarted).ips())
                    .allSatisfy(ip -> assertThat(ip.status()).isEqualTo(IpStatus.DISABLED));
            readiness(border)
                    .jsonPath("$.status")
                    .isEqualTo("DOWN")
                    .jsonPath("$.components.decisions.details.reason")
                    .value(reason -> assertThat((String) reason)
                            .contains("the stored record is missing, though this Border stored record number 1"));
        }
    }

    @Test
    void aReadThatKeepsFailingStartsEveryIpDisabledAfterItsRetries() {
        InMemoryBorderRegistry registry = new InMemoryBorderRegistry();
        registry.decisions().failReads(true);
        try (ConfigurableApplicationContext border = start(registry, "--egress.decisions.read-timeout=1s")) {
            Announcement first = firstPublished(registry);
            assertThat(first.ips()).allSatisfy(ip -> assertThat(ip.status()).isEqualTo(IpStatus.DISABLED));
            assertThat(registry.decisions().reads()).isGreaterThan(1);
            readiness(border)
                    .jsonPath("$.components.decisions.details.reason")
                    .value(reason -> assertThat((String) reason)
                            .startsWith("the read failed: ")
                            .contains("registry down (test)")
                            .contains("attempts in PT1S"));
        }
    }

    @Test
    void afterAFailedStartTheStoredDecisionsApplyOnceTheRegistryAnswers() {
        InMemoryBorderRegistry registry = new InMemoryBorderRegistry();
        registry.decisions().failReads(true);
        registry.decisions()
                .preset(bytes(
                        "{\"version\":1,\"borderId\":\"border-start\",\"decisions\":{\"127.0.0.3\":\"DISABLED\"}}"));
        try (ConfigurableApplicationContext border = start(registry, "--egress.decisions.read-timeout=1s")) {
            assertThat(registry.held().statusOf(IP2)).contains(IpStatus.DISABLED);

            registry.decisions().failReads(false);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(registry.held().statusOf(IP2)).contains(IpStatus.ACTIVE);
                assertThat(registry.held().statusOf(IP3)).contains(IpStatus.DISABLED);
            });
            readiness(border).jsonPath("$.components.decisions.details.state").isEqualTo("RESTORED");
        }
    }

    @Test
    void withNothingStoredEveryIpStartsWithTheInitialStatus() {
        InMemoryBorderRegistry registry = new InMemoryBorderRegistry();
        try (ConfigurableApplicationContext border = start(registry)) {
            assertThat(firstPublished(registry).ips())
                    .allSatisfy(ip -> assertThat(ip.status()).isEqualTo(IpStatus.ACTIVE));
            readiness(border).jsonPath("$.components.decisions.details.state").isEqualTo("NOTHING_STORED");
        }
    }

    private static ConfigurableApplicationContext start(InMemoryBorderRegistry registry, String... more) {
        String[] base = {
            "--server.port=0",
            "--egress.border.id=border-start",
            "--egress.border.advertised-url=http://127.0.0.1:8181",
            "--egress.border.ips=127.0.0.2,127.0.0.3",
            "--egress.border.allow-loopback-ips=true",
            "--egress.security.internal-token=" + Tokens.INTERNAL,
            "--egress.security.operator-token=" + Tokens.OPERATOR,
            "--egress.security.insecure-local=true"
        };
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return new SpringApplicationBuilder(BorderApplication.class)
                .initializers(ctx -> ctx.getBeanFactory().registerSingleton("inMemoryBorderRegistry", registry))
                .run(all);
    }

    private static Announcement firstPublished(InMemoryBorderRegistry registry) {
        return registry.events().stream()
                .filter(InMemoryBorderRegistry.Published.class::isInstance)
                .map(e -> ((InMemoryBorderRegistry.Published) e).announcement())
                .findFirst()
                .orElseThrow();
    }

    private static WebTestClient.BodyContentSpec readiness(ConfigurableApplicationContext border) {
        return web(border).get().uri("/actuator/health/readiness").exchange().expectBody();
    }

    private static WebTestClient web(ConfigurableApplicationContext border) {
        int port = ((WebServerApplicationContext) border).getWebServer().getPort();
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
