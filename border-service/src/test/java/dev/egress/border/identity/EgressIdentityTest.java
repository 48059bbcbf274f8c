package dev.egress.border.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.InMemoryBorderRegistry;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.testing.RecordingSink;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A whole Border with the egress identity check on, against a real echo server on loopback that answers
 * the caller's address. 127.0.0.3 leaves as itself and is served. The IP 127.0.0.2 is bound as 127.0.0.5,
 * and nothing on loopback translates .5 to .2, so the echo service sees .5: exactly a cloud whose SNAT
 * rewrites the source to the wrong address. That IP is announced DISABLED with its reason, refuses
 * forwards, and stays withheld whatever the operator sets.
 */
@LocalBorderTest({
    "egress.border.id=border-id-check",
    "egress.border.ips=127.0.0.5=127.0.0.2,127.0.0.3",
    BorderTestProperties.LOCAL,
    BorderTestProperties.OPERATOR,
    BorderTestProperties.LOOPBACK_TARGETS
})
class EgressIdentityTest {

    private static final EgressIp WRONGLY_TRANSLATED = EgressIp.of("127.0.0.2");
    private static final EgressIp SELF = EgressIp.of("127.0.0.3");

    @AutoClose
    static final RecordingSink sink = RecordingSink.started();

    static final DisposableServer echo = HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .handle((request, response) -> response.sendString(
                            Mono.just(request.remoteAddress().getAddress().getHostAddress()))
                    .then())
            .bindNow();

    @DynamicPropertySource
    static void echoUrl(DynamicPropertyRegistry properties) {
        properties.add("egress.border.egress-check.url", () -> "http://127.0.0.1:" + echo.port() + "/");
    }

    @AfterAll
    static void stopEcho() {
        echo.disposeNow();
    }

    @Autowired
    WebTestClient web;

    @Autowired
    InMemoryBorderRegistry registry;

    @Test
    void announcesTheWronglyTranslatedIpDisabledWithItsReasonAndTheOtherActive() {
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(registry.held().ips())
                        .containsExactly(
                                new AnnouncedIp(
                                        WRONGLY_TRANSLATED,
                                        EgressIp.of("127.0.0.5"),
                                        IpStatus.DISABLED,
                                        "egress-identity-mismatch"),
                                new AnnouncedIp(SELF, IpStatus.ACTIVE)));
    }

    @Test
    void refusesForwardsFromTheWithheldIpAndServesTheOther() {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> registry.held().statusOf(SELF).orElseThrow() == IpStatus.ACTIVE);
        sink.clear();

        forward(WRONGLY_TRANSLATED)
                .expectStatus()
                .isEqualTo(409)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:ip-not-active");
        assertThat(sink.received()).isEmpty();

        forward(SELF).expectStatus().isOk().expectBody().returnResult();
        assertThat(sink.received()).hasSize(1);
    }

    @Test
    void theOperatorCannotActivateAWithheldIpButItsViewSaysWhy() {
        web.put()
                .uri("/ops/v1/ips/" + WRONGLY_TRANSLATED)
                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("status", "ACTIVE"))
                .exchange()
                .expectBody()
                .returnResult();

        web.get()
                .uri("/ops/v1/ips")
                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.ips[?(@.ip == '127.0.0.2')].status")
                .isEqualTo("DISABLED")
                .jsonPath("$.ips[?(@.ip == '127.0.0.2')].reason")
                .isEqualTo("egress-identity-mismatch");
        assertThat(registry.held().statusOf(WRONGLY_TRANSLATED)).contains(IpStatus.DISABLED);
    }

    private WebTestClient.ResponseSpec forward(EgressIp sourceIp) {
        return web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(new ForwardRequest(
                        "d-" + sourceIp, sourceIp.value(), sink.baseUri() + "/hook", "POST", Map.of(), "{}"))
                .exchange();
    }
}
