package dev.egress.app.status;

import static dev.egress.discovery.web.testing.Exchanges.expectGet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.app.support.AppITSupport;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Status API, probes, metrics, OpenAPI and the tenants file reload, over HTTP. */
class StatusIT extends AppITSupport {

    private static Announcement border(String id, int port, AnnouncedIp... ips) {
        return Announcement.initial(
                BorderId.of(id), URI.create("http://127.0.0.1:" + port), List.of(ips), Instant.now());
    }

    private static AnnouncedIp ip(String ip, IpStatus status) {
        return new AnnouncedIp(EgressIp.of(ip), status);
    }

    private WebTestClient anonymous() {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
    }

    @AfterEach
    void restoreTenants() throws Exception {
        Files.writeString(tenantsFile(), TENANTS);
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> expectGet(client(), "/v1/tenants/tiny-co/egress", HttpStatus.OK));
    }

    @Test
    void listsLiveIpsWithBestStatusTheirBordersAndConflicts() {
        publish(
                border("s-a", 1, ip("127.0.0.2", IpStatus.DRAINING), ip("127.0.0.5", IpStatus.ACTIVE)),
                border("s-b", 2, ip("127.0.0.2", IpStatus.ACTIVE)));

        client().get()
                .uri("/v1/egress/ips")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.generation")
                .isNumber()
                .jsonPath("$.ageMillis")
                .isNumber()
                .jsonPath("$.ips.length()")
                .isEqualTo(2)
                .jsonPath("$.ips[0].ip")
                .isEqualTo("127.0.0.2")
                .jsonPath("$.ips[0].status")
                .isEqualTo("ACTIVE")
                .jsonPath("$.ips[0].borders[0].id")
                .isEqualTo("s-a")
                .jsonPath("$.ips[0].borders[0].status")
                .isEqualTo("DRAINING")
                .jsonPath("$.ips[0].borders[1].id")
                .isEqualTo("s-b")
                .jsonPath("$.conflicts[0].ip")
                .isEqualTo("127.0.0.2")
                .jsonPath("$.conflicts[0].borders[0]")
                .isEqualTo("s-a");
    }

    @Test
    void aDedicatedIpAnnouncedActiveByTwoBordersIsAConflictAndNotAvailableToItsTenant() {
        publish(
                border("s-a", 1, ip("127.0.0.2", IpStatus.ACTIVE), ip("127.0.0.3", IpStatus.DISABLED)),
                border("s-b", 1, ip("127.0.0.2", IpStatus.ACTIVE)));

        client().get()
                .uri("/v1/egress/ips")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.conflicts[0].ip")
                .isEqualTo("127.0.0.2")
                .jsonPath("$.conflicts[0].borders.length()")
                .isEqualTo(2);
        client().get()
                .uri("/v1/tenants/acme/egress")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.available")
                .isEqualTo(false)
                .jsonPath("$.ips[0].ip")
                .isEqualTo("127.0.0.2")
                .jsonPath("$.ips[0].available")
                .isEqualTo(false);
    }

    @Test
    void showsATenantsAllowlistAndWhetherItCanFlow() {
        publish(border("s-a", 1, ip("127.0.0.2", IpStatus.DRAINING), ip("127.0.0.3", IpStatus.ACTIVE)));

        client().get()
                .uri("/v1/tenants/acme/egress")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tenantId")
                .isEqualTo("acme")
                .jsonPath("$.dedicated")
                .isEqualTo(true)
                .jsonPath("$.available")
                .isEqualTo(true)
                .jsonPath("$.ips[0].ip")
                .isEqualTo("127.0.0.2")
                .jsonPath("$.ips[0].available")
                .isEqualTo(false)
                .jsonPath("$.ips[1].available")
                .isEqualTo(true);
        client().get()
                .uri("/v1/tenants/small-co/egress")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.dedicated")
                .isEqualTo(false)
                .jsonPath("$.available")
                .isEqualTo(false)
                .jsonPath("$.ips.length()")
                .isEqualTo(2);
        client().get()
                .uri("/v1/tenants/ghost/egress")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:unknown-tenant");
    }

    @Test
    void probesPrometheusAndTheApiDescriptionAreOpenEverythingElseNeedsAToken() {
        expectGet(anonymous(), "/actuator/health/liveness", HttpStatus.OK);
        expectGet(anonymous(), "/actuator/prometheus", HttpStatus.OK);
        expectGet(anonymous(), "/actuator/health", HttpStatus.UNAUTHORIZED);
        expectGet(anonymous(), "/v1/egress/ips", HttpStatus.UNAUTHORIZED);
        // The API description is public: Swagger UI loads it before anyone signs in.
        expectGet(anonymous(), "/v3/api-docs", HttpStatus.OK);
        expectGet(anonymous(), "/actuator/metrics", HttpStatus.UNAUTHORIZED);
    }

    @Test
    void exposesMetricsAndTheOpenApiDocument() {
        publish(border("s-a", 1, ip("127.0.0.2", IpStatus.ACTIVE)));
        client().get()
                .uri("/v1/deliveries")
                .exchange()
                .expectStatus()
                .is4xxClientError()
                .expectBody()
                .returnResult();

        String prometheus = anonymous()
                .get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(prometheus)
                .contains(
                        "egress_routing_snapshot_age_seconds",
                        "egress_tenants_file_valid",
                        "egress_routing_ips_conflicts",
                        "egress_routing_borders_live",
                        "egress_delivery_retries_total");
        // Both services tag their meters with the application, so one dashboard can tell them apart.
        assertThat(prometheus).contains("egress_routing_borders_live{application=\"app-service\"}");
        assertThat(prometheus
                        .lines()
                        .filter(line -> line.startsWith("egress_") && !line.contains("application=\"app-service\"")))
                .isEmpty();

        client().get()
                .uri("/v3/api-docs")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.paths['/v1/deliveries'].post")
                .exists()
                .jsonPath("$.paths['/v1/egress/ips'].get")
                .exists()
                .jsonPath("$.paths['/v1/tenants/{id}/egress'].get")
                .exists()
                .jsonPath("$.paths['/v1/deliveries'].post.responses['202']")
                .exists()
                .jsonPath("$.paths['/v1/deliveries'].get")
                .exists()
                .jsonPath("$.paths['/v1/deliveries/{id}'].get")
                .exists()
                .jsonPath("$.paths['/v1/deliveries/{id}/retry'].post")
                .exists()
                .jsonPath("$.paths['/v1/tenants/{tenantId}/deliveries/retry'].post")
                .exists();
    }

    @Test
    void theOpenApiDocumentDescribesTheThreeBodyFormsWithExamples() {
        client().get()
                .uri("/v3/api-docs")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.components.schemas.DeliveryRequest.properties.payload")
                .exists()
                .jsonPath("$.components.schemas.DeliveryRequest.properties.body.type")
                .isEqualTo("string")
                .jsonPath("$.components.schemas.DeliveryRequest.properties.bodyBase64.format")
                .isEqualTo("byte")
                .jsonPath("$.paths['/v1/deliveries'].post.requestBody.content['application/json'].examples.form")
                .exists()
                .jsonPath("$.paths['/v1/deliveries'].post.requestBody.content['application/json'].examples.bytes")
                .exists()
                .jsonPath("$.paths['/v1/deliveries'].post.requestBody.content['application/json'].examples.payload")
                .exists();
    }

    @Test
    void eachBorderCarriesItsOwnAnnouncementGenerationBesideAppsSnapshotGeneration() {
        Announcement changed = border("s-g", 1, ip("127.0.0.6", IpStatus.ACTIVE))
                .withIpStatus(EgressIp.of("127.0.0.6"), IpStatus.DRAINING)
                .republished(6, Instant.now());
        publish(changed);

        client().get()
                .uri("/v1/egress/ips")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.sharedStrategy")
                .isEqualTo("rendezvous")
                .jsonPath("$.ips[0].ip")
                .isEqualTo("127.0.0.6")
                .jsonPath("$.ips[0].borders[0].generation")
                .isEqualTo(7)
                .jsonPath("$.generation")
                .value(generation ->
                        assertThat(((Number) generation).longValue()).isPositive());
        assertThat(changed.generation()).isEqualTo(7);
    }

    @Test
    void theOpenApiDocumentHasATitleTheBearerSchemeAndProblemErrors() {
        client().get()
                .uri("/v3/api-docs")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.info.title")
                .isEqualTo("Egress platform dispatch API")
                .jsonPath("$.info.version")
                .value(version -> assertThat((String) version).isNotBlank().isNotEqualTo("v0"))
                .jsonPath("$.components.securitySchemes.bearer.scheme")
                .isEqualTo("bearer")
                .jsonPath("$.security[0].bearer")
                .exists()
                .jsonPath(
                        "$.paths['/v1/deliveries'].post.responses['503'].content['application/problem+json'].schema['$ref']")
                .isEqualTo("#/components/schemas/Problem")
                .jsonPath("$.paths['/v1/deliveries'].post.responses['503'].content['application/json']")
                .doesNotExist()
                .jsonPath("$.paths['/v1/deliveries'].post.responses['200'].content")
                .exists();
    }

    @Test
    void showsTheDestinationsATenantClaimsNormalised() throws Exception {
        Files.writeString(
                tenantsFile(),
                TENANTS + "  - id: claimer\n    destinations: [Hooks.Claimer.Test., \"*.claimer.test:443\"]\n");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> client().get()
                        .uri("/v1/tenants/claimer/egress")
                        .exchange()
                        .expectStatus()
                        .isOk()
                        .expectBody()
                        .jsonPath("$.destinations.length()")
                        .isEqualTo(2)
                        .jsonPath("$.destinations[0]")
                        .isEqualTo("hooks.claimer.test")
                        .jsonPath("$.destinations[1]")
                        .isEqualTo("*.claimer.test:443"));
        client().get()
                .uri("/v1/tenants/acme/egress")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.destinations.length()")
                .isEqualTo(0);
    }

    @Test
    void aValidTenantsChangeAppliesAndAnInvalidOneKeepsTheLastGood() throws Exception {
        Files.writeString(tenantsFile(), TENANTS + "  - id: newcomer\n    dedicatedIps: [127.0.0.7]\n");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> client().get()
                        .uri("/v1/tenants/newcomer/egress")
                        .exchange()
                        .expectStatus()
                        .isOk()
                        .expectBody()
                        .jsonPath("$.ips[0].ip")
                        .isEqualTo("127.0.0.7"));

        Files.writeString(tenantsFile(), "sharedPool: [not-an-ip]\ntenants: []\n");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> client().get()
                        .uri("/actuator/health")
                        .exchange()
                        .expectBody()
                        .jsonPath("$.components.tenants.details.valid")
                        .isEqualTo(false)
                        .jsonPath("$.components.tenants.details.lastError")
                        .value(e -> assertThat((String) e).contains("sharedPool[0]")));
        expectGet(client(), "/v1/tenants/newcomer/egress", HttpStatus.OK);
        expectGet(client(), "/v1/tenants/acme/egress", HttpStatus.OK);
        String prometheus = anonymous()
                .get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(prometheus).contains("egress_tenants_file_valid{application=\"app-service\"} 0.0");
    }
}
