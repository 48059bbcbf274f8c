package dev.egress.border.ssrf;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.InMemoryRegistryConfiguration;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardRequest;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The Border as {@code ./run-local.sh} configures it ({@code allowed-ranges=127.0.0.1/32:9999}: only the
 * demo sink's port): the platform's other services on this host are not webhook targets.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "egress.border.id=border-local",
            "egress.border.ips=127.0.0.5",
            BorderTestProperties.LOOPBACK_IPS,
            "egress.border.advertised-url=http://127.0.0.1:8182",
            "egress.ssrf.allowed-ranges=127.0.0.1/32:9999",
            "egress.security.insecure-local=true",
            "egress.security.internal-token=" + Tokens.INTERNAL
        })
@AutoConfigureWebTestClient(timeout = "60s")
@Import(InMemoryRegistryConfiguration.class)
class SsrfLocalModeEndpointTest {

    @Autowired
    WebTestClient web;

    @Autowired
    SsrfGuard guard;

    @Autowired
    WebServerApplicationContext context;

    @Test
    void refusesItsOwnListeningPortEvenWhereTheAllowedRangeNamesIt() {
        // This Border listens on a random port; an entry naming that very port still does not reopen it.
        int port = context.getWebServer().getPort();
        SsrfGuard wide = new SsrfGuard(
                List.of(AllowedRange.parse("127.0.0.1/32:" + port)), List.of(), context.getBean(OwnAddresses.class));
        Assertions.assertThatThrownBy(() -> wide.vetUrl("http://127.0.0.1:" + port + "/"))
                .isInstanceOfSatisfying(
                        TargetDeniedException.class,
                        e -> Assertions.assertThat(e.reason()).isEqualTo(DenialReason.OWN_ADDRESS));
        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(new ForwardRequest(
                        "d", "127.0.0.5", "http://127.0.0.1:" + port + "/ops/v1/ips", "GET", Map.of(), (byte[]) null))
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.reason")
                .isEqualTo("OWN_ADDRESS");
    }

    @ParameterizedTest(name = "{0} -> 403 {1}")
    @CsvSource({
        // Allowed range, other port: loopback is denied as itself.
        "http://127.0.0.1:8080/v1/deliveries, DENIED_RANGE",
        "http://127.0.0.1:8181/internal/v1/egress, DENIED_RANGE",
        "http://127.0.0.1:8182/ops/v1/ips, DENIED_RANGE",
        "http://127.0.0.1:2136/, DENIED_RANGE",
        "http://127.0.0.2:9999/, DENIED_RANGE",
        "http://[::1]:9999/, DENIED_RANGE",
        "http://0x7f000001:8080/, DENIED_RANGE",
        "http://[::ffff:127.0.0.1]:2136/, DENIED_RANGE",
        "http://[::ffff:0:7f00:1]:9999/, DENIED_RANGE",
        "http://[64:ff9b::7f00:1]:9999/, DENIED_RANGE"
    })
    void refusesThePlatformsOwnServicesOnThisHost(String url, String reason) {
        SsrfEndpointTest.refusedBeforeAnyLookup(guard, url);
        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(new ForwardRequest("d", "127.0.0.5", url, "POST", Map.of(), "{}"))
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-denied")
                .jsonPath("$.reason")
                .isEqualTo(reason)
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
    }
}
