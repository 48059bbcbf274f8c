package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
import dev.egress.app.support.BorderDouble;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.web.testing.RecordingSink;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A Border behind a NAT announces each IP by its public address with the private address it binds.
 * Here beta's dedicated IP 127.0.0.4 is bound as 127.0.0.6 and acme's 127.0.0.2 as 127.0.0.5 (loopback
 * stands in for both networks; the real NAT is system-tests' PublicAddressNatIT): App routes by the
 * public address, accepts the route's own bind address as the reported source, and publishes only
 * public addresses to tenants.
 */
class NatMappedRouteIT extends AppITSupport {

    private static final String OPERATOR_TOKEN = "nat-operator-token";
    private static final Map<String, String> BINDS = Map.of("127.0.0.4", "127.0.0.6", "127.0.0.2", "127.0.0.5");

    private RecordingSink sink;
    private BorderDouble border;

    @DynamicPropertySource
    static void ops(DynamicPropertyRegistry registry) {
        registry.add("egress.security.operator-token", () -> OPERATOR_TOKEN);
    }

    @BeforeEach
    void start() throws Exception {
        sink = RecordingSink.start();
        border = BorderDouble.start("border-nat", INTERNAL_TOKEN, Duration.ofSeconds(5), "127.0.0.2", "127.0.0.4");
        publish(mapped(border.announcement()));
    }

    @AfterEach
    void stop() {
        publish();
        border.close();
        sink.close();
    }

    private static Announcement mapped(Announcement a) {
        return new Announcement(
                a.version(),
                a.borderId(),
                a.endpoint(),
                a.ips().stream()
                        .map(ip -> new AnnouncedIp(
                                ip.ip(),
                                EgressIp.of(BINDS.getOrDefault(
                                        ip.ip().value(), ip.ip().value())),
                                ip.status()))
                        .toList(),
                a.publishedAt(),
                a.generation());
    }

    @Test
    void acceptsTheRoutesBindAddressAsSourceAndReportsThePublicAddress() {
        border.reportSourceIp("127.0.0.6");

        deliver("beta", sink.baseUri() + "/hook")
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.egressIp")
                .isEqualTo("127.0.0.4")
                .jsonPath("$.attempts[0].egressIp")
                .isEqualTo("127.0.0.4");
        assertThat(border.calls()).isEqualTo(1);
    }

    @Test
    void stillAcceptsThePublicAddressItself() {
        border.reportSourceIp("127.0.0.4");

        deliver("beta", sink.baseUri() + "/hook")
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.egressIp")
                .isEqualTo("127.0.0.4");
    }

    @Test
    void refusesTheBindAddressOfAnotherIpOnTheSameBorder() {
        border.reportSourceIp("127.0.0.5");

        deliver("beta", sink.baseUri() + "/hook")
                .expectStatus()
                .isEqualTo(502)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:border-fault")
                .jsonPath("$.attempts[0].outcome")
                .isEqualTo("source-ip-mismatch")
                .jsonPath("$.detail")
                .value(detail -> assertThat((String) detail).contains("127.0.0.5", "127.0.0.4"));
    }

    @Test
    void theTenantViewAndTheIpListPublishOnlyPublicAddresses() {
        String tenant = body(client().get().uri("/v1/tenants/beta/egress").exchange());
        assertThat(tenant).contains("\"ip\":\"127.0.0.4\"").doesNotContain("127.0.0.6");

        String ips = body(client().get().uri("/v1/egress/ips").exchange());
        assertThat(ips)
                .contains("\"ip\":\"127.0.0.4\"", "\"ip\":\"127.0.0.2\"")
                .doesNotContain("127.0.0.6", "127.0.0.5");
    }

    @Test
    void theFleetViewShowsBothAddresses() {
        String fleet = body(WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .build()
                .get()
                .uri("/ops/v1/fleet")
                .header("Authorization", "Bearer " + OPERATOR_TOKEN)
                .exchange());

        assertThat(fleet)
                .contains(
                        "{\"ip\":\"127.0.0.4\",\"bind\":\"127.0.0.6\",\"status\":\"ACTIVE\"}",
                        "{\"ip\":\"127.0.0.2\",\"bind\":\"127.0.0.5\",\"status\":\"ACTIVE\"}");
    }

    private static String body(WebTestClient.ResponseSpec spec) {
        return spec.expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }
}
