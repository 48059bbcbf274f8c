package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.border.testing.TricklingTarget;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.testing.RecordingSink;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

@LocalBorderTest({
    "egress.border.id=border-limits",
    "egress.border.ips=127.0.0.2,127.0.0.3",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS,
    "egress.limits.max-concurrency-per-ip=1",
    "egress.limits.max-request-body=1KB",
    // Above the 3 s the slow sink below takes, so only the trickling target hits it.
    "egress.limits.call-timeout=6s"
})
class LimitsTest {

    @AutoClose
    static final RecordingSink sink = RecordingSink.started();

    @Autowired
    WebTestClient web;

    @Autowired
    Admission admission;

    @LocalServerPort
    int port;

    @Test
    void refusesACallOverTheIpsConcurrencyLimitButNotOnAnotherIp() {
        sink.reply(new RecordingSink.Reply(200, "slow", Duration.ofSeconds(3), Map.of()));
        // WebTestClient blocks until the answer; the slow call needs a client that does not.
        Mono<ForwardResponse> slow = WebClient.create("http://127.0.0.1:" + port)
                .post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(new ForwardRequest("slow", "127.0.0.2", sink.baseUri() + "/", "POST", Map.of(), "x"))
                .retrieve()
                .bodyToMono(ForwardResponse.class);

        StepVerifier.create(slow)
                .then(() -> {
                    await().atMost(Duration.ofSeconds(30))
                            .until(() -> admission.inFlight(EgressIp.of("127.0.0.2")) == 1);
                    forward("127.0.0.2")
                            .expectStatus()
                            .isEqualTo(429)
                            .expectBody()
                            .jsonPath("$.type")
                            .isEqualTo("urn:egress:problem:too-many-requests")
                            .jsonPath("$.targetContacted")
                            .isEqualTo(false);
                    sink.reply(RecordingSink.Reply.ok());
                    forward("127.0.0.3").expectStatus().isOk().expectBody().returnResult();
                })
                .assertNext(r -> assertThat(r.body()).isEqualTo("slow"))
                .verifyComplete();
        // The slot is freed when the exchange ends, which may be just after the caller has the answer.
        await().atMost(Duration.ofSeconds(30)).until(() -> admission.inFlight(EgressIp.of("127.0.0.2")) == 0);
    }

    @Test
    void refusesAnEnvelopeFarOverTheCapWithPayloadTooLarge() {
        String huge = "{\"deliveryId\":\"d\",\"sourceIp\":\"127.0.0.2\",\"url\":\"http://127.0.0.1/\",\"body\":\""
                + "x".repeat(2 * 1024 * 1024) + "\"}";
        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(huge)
                .exchange()
                .expectStatus()
                .isEqualTo(413)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:payload-too-large");
    }

    @Test
    void cutsOffATargetThatTricklesItsAnswerAndFreesTheSlot() throws Exception {
        try (TricklingTarget target = TricklingTarget.start()) {
            web.post()
                    .uri("/internal/v1/egress")
                    .header("Authorization", "Bearer " + Tokens.INTERNAL)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(new ForwardRequest(
                            "d", "127.0.0.3", "http://127.0.0.1:" + target.port() + "/", "POST", Map.of(), "x"))
                    .exchange()
                    .expectStatus()
                    .isEqualTo(504)
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:target-timeout")
                    .jsonPath("$.targetContacted")
                    .isEqualTo(true);

            // The bytes kept coming faster than the response timeout; only the call deadline ended it.
            assertThat(target.bytesSent()).isGreaterThan(1);
            await().atMost(Duration.ofSeconds(30)).until(target::closedByPeer);
            await().atMost(Duration.ofSeconds(30)).until(() -> admission.inFlight(EgressIp.of("127.0.0.3")) == 0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0001b", "a\u007fb", " leading"})
    void refusesAHeaderValueNettyWouldRefuseAndLeavesTheSlotFree(String value) {
        // With one slot per IP, a refused call that kept its slot would turn the next call into a 429.
        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(
                        new ForwardRequest("d", "127.0.0.2", sink.baseUri() + "/", "POST", Map.of("X-Sig", value), "x"))
                .exchange()
                .expectStatus()
                .isEqualTo(400)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:invalid-request")
                .jsonPath("$.detail")
                .value(detail -> assertThat(detail.toString()).startsWith("headers.X-Sig: U+"));

        sink.reply(RecordingSink.Reply.ok());
        forward("127.0.0.2").expectStatus().isOk().expectBody().returnResult();
        await().atMost(Duration.ofSeconds(30)).until(() -> admission.inFlight(EgressIp.of("127.0.0.2")) == 0);
    }

    private WebTestClient.ResponseSpec forward(String ip) {
        return web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(new ForwardRequest("d", ip, sink.baseUri() + "/", "POST", Map.of(), "x"))
                .exchange();
    }
}
