package dev.egress.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.web.testing.DoorTable;
import dev.egress.discovery.web.testing.DoorTable.Door;
import dev.egress.discovery.web.testing.DoorTable.Token;
import dev.egress.discovery.web.testing.PathVariant;
import dev.egress.discovery.web.testing.RecordingSink;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Every door of the App, spelled every way a raw-prefix check and the router may read differently,
 * with every token: only a token of the door on the canonical path gets through, and no spelling lets
 * a wrong token in (the delivery door never reaches the target for a refused call).
 */
class PathAuthorisationIT extends AppITSupport {

    static final String OPERATOR = "test-operator-token";
    static final String ACME_ONLY = "test-acme-only-token";

    static final Token API = new Token("API", API_TOKEN);
    static final Token ACME_BOUND = new Token("ACME_BOUND", ACME_ONLY);
    static final Token OPS_TOKEN = new Token("OPERATOR", OPERATOR);
    static final Token[] TOKENS = {
        API,
        ACME_BOUND,
        new Token("INTERNAL", INTERNAL_TOKEN),
        OPS_TOKEN,
        new Token("NONE", null),
        new Token("WRONG", "not-a-token")
    };

    /** The doors; API also admits the acme-bound token where it acts for acme (the tenant-scoped doors). */
    static final Door DELIVERIES = new Door("DELIVERIES", HttpMethod.POST, "/v1/deliveries", API, 404);

    static final Door TENANT_EGRESS = new Door("TENANT_EGRESS", HttpMethod.GET, "/v1/tenants/acme/egress", API, 404);
    static final Door[] DOORS = {
        DELIVERIES,
        TENANT_EGRESS,
        new Door("EGRESS_IPS", HttpMethod.GET, "/v1/egress/ips", API, 404),
        new Door("OPS", HttpMethod.GET, "/ops/v1/door-test", OPS_TOKEN, 404),
        new Door("ACTUATOR_METRICS", HttpMethod.GET, "/actuator/metrics", API, 404),
        new Door("ACTUATOR_HEALTH", HttpMethod.GET, "/actuator/health", API, 200),
        new Door("PROBE", HttpMethod.GET, "/actuator/health/liveness", null, 200)
    };

    private static boolean tenantScoped(Door door) {
        return door == DELIVERIES || door == TENANT_EGRESS;
    }

    /** A stand-in for the fleet API under the operator door (built elsewhere). */
    @TestConfiguration(proxyBeanMethods = false)
    static class OperatorRoute {
        @Bean
        RouterFunction<ServerResponse> doorTestRoute() {
            return RouterFunctions.route()
                    .GET("/ops/v1/door-test", request -> ServerResponse.ok().bodyValue("{}"))
                    .build();
        }
    }

    @DynamicPropertySource
    static void tokens(DynamicPropertyRegistry registry) {
        registry.add("egress.security.operator-token", () -> OPERATOR);
        registry.add("egress.security.tenant-api-tokens.acme", () -> ACME_ONLY);
    }

    static RecordingSink sink;
    static BorderDouble border;

    @BeforeAll
    static void startTarget() throws Exception {
        sink = RecordingSink.start();
        border = BorderDouble.start("border-paths", INTERNAL_TOKEN, Duration.ofSeconds(5), "127.0.0.2");
    }

    @AfterAll
    static void stopTarget() {
        border.close();
        sink.close();
    }

    @BeforeEach
    void route() {
        publish(border.announcement());
    }

    static Stream<Arguments> table() {
        return DoorTable.rows(DOORS, TOKENS, PathAuthorisationIT::expected);
    }

    /** 400 for a spelling with two meanings; 401 for a wrong token; 403 for a tenant-bound token off its endpoints; 404 no route. */
    static int expected(Door door, PathVariant variant, Token token) {
        // A variant of an open path is not open: it falls to the door of its first segment (the API's).
        Token required = door.token() != null ? door.token() : API;
        boolean openPath = door.token() == null && variant == PathVariant.CANONICAL;
        if (!variant.refused() && !openPath && required == API && token == ACME_BOUND) {
            return tenantScoped(door) && variant == PathVariant.CANONICAL ? 200 : 403;
        }
        return DoorTable.shared(variant, door.token() == null, token == required, door.trailingSlash());
    }

    private WebTestClient raw() {
        return WebTestClient.bindToServer()
                .responseTimeout(Duration.ofSeconds(60))
                .build();
    }

    @ParameterizedTest(name = "{0} {1} with {2} -> {3}")
    @MethodSource("table")
    void onlyATokenOfTheDoorOnTheCanonicalPathGetsThrough(Door door, PathVariant variant, Token token, int status) {
        int before = sink.received().size();
        WebTestClient.RequestBodySpec request = DoorTable.request(raw(), port, door, variant, token);
        if (door == DELIVERIES) {
            request.contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of(
                            "tenantId", "acme", "url", sink.baseUri() + "/hook", "payload", Map.of("event", "ping")));
        }
        request.exchange().expectStatus().isEqualTo(status).expectBody().returnResult();
        if (door == DELIVERIES) {
            assertThat(sink.received())
                    .as("requests that reached the target")
                    .hasSize(before + (status == 200 ? 1 : 0));
        }
    }

    @Test
    void anUnauthenticatedCallToTheOperatorApiGets401EvenWhereNoRouteExists() {
        raw().get()
                .uri(URI.create("http://127.0.0.1:" + port + "/ops/v1/fleet"))
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectHeader()
                .valueEquals("WWW-Authenticate", "Bearer")
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:unauthorized");
        raw().put()
                .uri(URI.create("http://127.0.0.1:" + port + "/ops/v1/ips/127.0.0.2"))
                .header("Authorization", "Bearer " + API_TOKEN)
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .returnResult();
    }

    @Test
    void theOperatorPagesAssetsStayOpenForReadingOnly() {
        // The operator page is bundled: reading it needs no token, writing to its path does.
        raw().get()
                .uri(URI.create("http://127.0.0.1:" + port + "/ops/index.html"))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        raw().post()
                .uri(URI.create("http://127.0.0.1:" + port + "/ops/index.html"))
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .returnResult();
    }
}
