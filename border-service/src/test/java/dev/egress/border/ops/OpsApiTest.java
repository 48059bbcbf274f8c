package dev.egress.border.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.InMemoryBorderRegistry;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

@LocalBorderTest({
    "egress.border.id=border-ops",
    "egress.border.ips=127.0.0.7,127.0.0.8",
    BorderTestProperties.LOCAL,
    BorderTestProperties.OPERATOR
})
class OpsApiTest {

    @Autowired
    WebTestClient web;

    @Autowired
    InMemoryBorderRegistry registry;

    @Test
    void listsEveryIpWithItsStatusAndTheRegistrationState() {
        web.get()
                .uri("/ops/v1/ips")
                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.borderId")
                .isEqualTo("border-ops")
                .jsonPath("$.registration")
                .isEqualTo("REGISTERED")
                .jsonPath("$.ips[0].ip")
                .isEqualTo("127.0.0.7")
                .jsonPath("$.ips[1].ip")
                .isEqualTo("127.0.0.8")
                .jsonPath("$.ips[0].inFlight")
                .isEqualTo(0);
    }

    @Test
    void republishesTheWholeAnnouncementWhenAnOperatorChangesAStatus() {
        long before = registry.held().generation();

        put("127.0.0.8", "draining")
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.ips[?(@.ip == '127.0.0.8')].status")
                .isEqualTo("DRAINING")
                .jsonPath("$.ips[?(@.ip == '127.0.0.7')].status")
                .isEqualTo("ACTIVE");

        assertThat(registry.held().generation()).isGreaterThan(before);
        assertThat(registry.held().statusOf(EgressIp.of("127.0.0.8"))).contains(IpStatus.DRAINING);
        assertThat(registry.held().statusOf(EgressIp.of("127.0.0.7"))).contains(IpStatus.ACTIVE);

        put("127.0.0.8", "ACTIVE").expectStatus().isOk().expectBody().returnResult();
        assertThat(registry.held().statusOf(EgressIp.of("127.0.0.8"))).contains(IpStatus.ACTIVE);
    }

    @Test
    void aReleasedIpIsStoredThenAnnouncedDisabledAsReleasedAndClaimedAgainOnRequest() {
        release("127.0.0.8", true)
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.ips[?(@.ip == '127.0.0.8')].status")
                .isEqualTo("DISABLED")
                .jsonPath("$.ips[?(@.ip == '127.0.0.8')].reason")
                .isEqualTo("released");

        assertThat(new String(registry.decisions().stored(), StandardCharsets.UTF_8))
                .contains("\"released\":[\"127.0.0.8\"]");
        AnnouncedIp held = registry.held().ips().stream()
                .filter(ip -> ip.ip().equals(EgressIp.of("127.0.0.8")))
                .findFirst()
                .orElseThrow();
        assertThat(held.claims()).isFalse();
        assertThat(held.status()).isEqualTo(IpStatus.DISABLED);

        release("127.0.0.8", false).expectStatus().isOk().expectBody().returnResult();
        assertThat(registry.held().statusOf(EgressIp.of("127.0.0.8"))).contains(IpStatus.ACTIVE);
        assertThat(registry.held().ips())
                .allSatisfy(ip -> assertThat(ip.claims()).isTrue());
        assertThat(new String(registry.decisions().stored(), StandardCharsets.UTF_8))
                .doesNotContain("released");
    }

    private WebTestClient.ResponseSpec release(String ip, boolean released) {
        return web.put()
                .uri("/ops/v1/ips/{ip}/release", ip)
                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("released", released))
                .exchange();
    }

    @Test
    void storesTheDecisionInTheRegistryBeforeAnnouncingIt() {
        put("127.0.0.8", "DISABLED").expectStatus().isOk().expectBody().returnResult();

        assertThat(new String(registry.decisions().stored(), StandardCharsets.UTF_8))
                .contains("\"127.0.0.8\":\"DISABLED\"")
                .contains("\"borderId\":\"border-ops\"");
        put("127.0.0.8", "ACTIVE").expectStatus().isOk().expectBody().returnResult();
        assertThat(new String(registry.decisions().stored(), StandardCharsets.UTF_8))
                .contains("\"127.0.0.8\":\"ACTIVE\"");
    }

    @Test
    void answers503AndTakesTheChangeBackWhenTheDecisionCannotBeStored() {
        long generation = registry.held().generation();
        byte[] before = registry.decisions().stored();
        registry.decisions().failWrites(true);
        try {
            put("127.0.0.7", "DISABLED")
                    .expectStatus()
                    .isEqualTo(503)
                    .expectHeader()
                    .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:unavailable")
                    .jsonPath("$.detail")
                    .value(detail -> assertThat((String) detail).contains("could not be stored"));
        } finally {
            registry.decisions().failWrites(false);
        }

        // Stored and announced at once, so the change was announced and then taken back: two generations.
        assertThat(registry.held().generation()).isEqualTo(generation + 2);
        assertThat(registry.held().statusOf(EgressIp.of("127.0.0.7"))).contains(IpStatus.ACTIVE);
        assertThat(registry.decisions().stored()).isEqualTo(before);
        web.get()
                .uri("/ops/v1/ips")
                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                .exchange()
                .expectBody()
                .jsonPath("$.ips[?(@.ip == '127.0.0.7')].status")
                .isEqualTo("ACTIVE");
    }

    @Test
    void anIpv4MappedSpellingOfAHostedIpIsThatIp() {
        put("::ffff:127.0.0.8", "DRAINING")
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.ips[?(@.ip == '127.0.0.8')].status")
                .isEqualTo("DRAINING");
        assertThat(registry.held().statusOf(EgressIp.of("127.0.0.8"))).contains(IpStatus.DRAINING);

        put("0:0:0:0:0:FFFF:7f00:8", "ACTIVE")
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        assertThat(registry.held().statusOf(EgressIp.of("127.0.0.8"))).contains(IpStatus.ACTIVE);
    }

    @Test
    void answersNotHostedForAnUnknownIp() {
        put("127.0.0.9", "DISABLED")
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:ip-not-hosted");
        put("not-an-ip", "DISABLED").expectStatus().isNotFound().expectBody().returnResult();
    }

    @Test
    void answersInvalidRequestForAnUnknownStatus() {
        put("127.0.0.7", "SLEEPING")
                .expectStatus()
                .isBadRequest()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:invalid-request");
        assertThat(registry.held().statusOf(EgressIp.of("127.0.0.7"))).contains(IpStatus.ACTIVE);
    }

    @Test
    void namesEveryStatusWhenRefusingAnUnknownOne() {
        put("127.0.0.7", "SLEEPING")
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.detail")
                .value(detail -> assertThat((String) detail)
                        .contains("(expected: " + IpStatus.choices() + ")")
                        .contains(
                                Arrays.stream(IpStatus.values()).map(Enum::name).toList()));
    }

    @Test
    void appChangesAStatusOnTheInternalRouteWithTheInternalTokenOnly() {
        web.put()
                .uri("/internal/v1/ips/{ip}", "127.0.0.7")
                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("status", "DISABLED"))
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .returnResult();
        assertThat(registry.held().statusOf(EgressIp.of("127.0.0.7"))).contains(IpStatus.ACTIVE);

        web.put()
                .uri("/internal/v1/ips/{ip}", "127.0.0.7")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("status", "DISABLED"))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.ips[?(@.ip == '127.0.0.7')].status")
                .isEqualTo("DISABLED");
        assertThat(registry.held().statusOf(EgressIp.of("127.0.0.7"))).contains(IpStatus.DISABLED);

        put("127.0.0.7", "ACTIVE").expectStatus().isOk().expectBody().returnResult();
    }

    @Test
    void anUnknownPathIsA404NotFoundAsOnApp() {
        web.get()
                .uri("/ops/v1/nowhere")
                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:not-found")
                .jsonPath("$.detail")
                .isEqualTo("no endpoint answers GET /ops/v1/nowhere")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
    }

    private WebTestClient.ResponseSpec put(String ip, String status) {
        return web.put()
                .uri("/ops/v1/ips/{ip}", ip)
                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("status", status))
                .exchange();
    }
}
