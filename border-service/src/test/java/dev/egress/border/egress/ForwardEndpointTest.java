package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.web.forward.BorderProblem;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.testing.RecordingSink;
import dev.egress.ydb.coordination.testing.ListenPorts;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.json.JsonMapper;

@LocalBorderTest({
    "egress.border.id=border-t",
    "egress.border.ips=127.0.0.2,127.0.0.3,127.0.0.4",
    BorderTestProperties.LOCAL,
    BorderTestProperties.OPERATOR,
    BorderTestProperties.LOOPBACK_TARGETS,
    "egress.limits.max-request-body=1KB",
    "egress.limits.max-response-body=64B",
    "egress.limits.response-timeout=2s"
})
class ForwardEndpointTest {

    @AutoClose
    static final RecordingSink sink = RecordingSink.started();

    @Autowired
    WebTestClient web;

    @Autowired
    BorderRegistrar registrar;

    @LocalServerPort
    int port;

    @BeforeEach
    void resetSink() {
        sink.reply(RecordingSink.Reply.ok());
        sink.clear();
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.2", "127.0.0.3", "127.0.0.4"})
    void sendsFromExactlyTheRequestedSourceIp(String ip) throws Exception {
        ForwardResponse response = forward(new ForwardRequest(
                        "d-" + ip,
                        ip,
                        sink.baseUri() + "/hook?x=1",
                        "POST",
                        Map.of("Content-Type", "application/json", "X-Signature", "abc"),
                        "{\"n\":1}"))
                .expectStatus()
                .isOk()
                .expectBody(ForwardResponse.class)
                .returnResult()
                .getResponseBody();

        assertThat(response.sourceIp()).isEqualTo(ip);
        assertThat(response.borderId()).isEqualTo("border-t");
        assertThat(response.deliveryId()).isEqualTo("d-" + ip);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"ok\":true}");
        assertThat(response.bodyTruncated()).isFalse();
        assertThat(sink.received()).singleElement().satisfies(r -> {
            assertThat(r.peer()).isEqualTo(InetAddress.getByName(ip));
            assertThat(r.method()).isEqualTo("POST");
            assertThat(r.path()).isEqualTo("/hook?x=1");
            assertThat(r.body()).isEqualTo("{\"n\":1}");
            assertThat(r.headers()).containsEntry("x-signature", "abc").containsEntry("content-length", "7");
        });
    }

    @Test
    void appsTraceStopsAtTheBorderTheTargetGetsOnlyTheWebhooksHeaders() {
        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .header("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(new ForwardRequest(
                        "d-trace", "127.0.0.2", sink.baseUri() + "/hook", "POST", Map.of("X-Signature", "abc"), "{}"))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();

        assertThat(sink.received())
                .singleElement()
                .satisfies(r -> assertThat(r.headers())
                        .containsEntry("x-signature", "abc")
                        .doesNotContainKeys("traceparent", "tracestate", "b3"));
    }

    @Test
    void dropsHopByHopAndProxyHeadersButKeepsTheRest() {
        forward(new ForwardRequest(
                        "d",
                        "127.0.0.2",
                        sink.baseUri() + "/",
                        "POST",
                        Map.of(
                                "Host",
                                "internal.example",
                                "Connection",
                                "close, X-Hop",
                                "X-Hop",
                                "1",
                                "Proxy-Authorization",
                                "secret",
                                "Transfer-Encoding",
                                "chunked",
                                "Keep-Alive",
                                "timeout=5",
                                "TE",
                                "trailers",
                                "Upgrade",
                                "h2c",
                                "Content-Length",
                                "999",
                                "X-Forwarded-For",
                                "10.0.0.1"),
                        "body"))
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();

        assertThat(sink.received()).singleElement().satisfies(r -> {
            assertThat(r.headers())
                    .doesNotContainKeys(
                            "x-hop",
                            "proxy-authorization",
                            "transfer-encoding",
                            "keep-alive",
                            "te",
                            "upgrade",
                            "x-forwarded-for");
            assertThat(r.headers().get("host")).isEqualTo("127.0.0.1:" + sink.port());
            assertThat(r.headers().get("content-length")).isEqualTo("4");
            assertThat(r.body()).isEqualTo("body");
        });
    }

    @Test
    void sendsTheBodysBytesUnchanged() {
        byte[] bytes = {(byte) 0xff, 0x00, (byte) 0xc3, 0x28, '{', '1', '.', '1', '0', '}'};
        forward(new ForwardRequest(
                        "d",
                        "127.0.0.2",
                        sink.baseUri() + "/",
                        "POST",
                        Map.of("Content-Type", "application/x-raw"),
                        bytes))
                .expectStatus()
                .isOk();

        assertThat(sink.received()).singleElement().satisfies(r -> {
            assertThat(r.bytes()).isEqualTo(bytes);
            assertThat(r.headers()).containsEntry("content-type", "application/x-raw");
        });
    }

    @Test
    void acceptsTheTextBodyOfAnOlderApp() {
        // Before bodyBase64, App sent the body as JSON text in "body": Borders upgraded first still take it.
        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"deliveryId\":\"d\",\"sourceIp\":\"127.0.0.2\",\"url\":\"" + sink.baseUri()
                        + "/\",\"method\":\"POST\",\"headers\":{},\"body\":\"caf\u00e9\"}")
                .exchange()
                .expectStatus()
                .isOk();

        assertThat(sink.received())
                .singleElement()
                .satisfies(r -> assertThat(r.body()).isEqualTo("caf\u00e9"));
    }

    @Test
    void refusesBothBodyFormsAtOnce() {
        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"deliveryId\":\"d\",\"sourceIp\":\"127.0.0.2\",\"url\":\"" + sink.baseUri()
                        + "/\",\"body\":\"x\",\"bodyBase64\":\"eA==\"}")
                .exchange()
                .expectStatus()
                .isBadRequest();

        assertThat(sink.received()).isEmpty();
    }

    @Test
    void returnsARedirectAsTheResultWithoutFollowingIt() {
        sink.reply(new RecordingSink.Reply(
                302, "", Duration.ZERO, Map.of("Location", "http://169.254.169.254/latest/meta-data")));

        ForwardResponse response = forward(
                        new ForwardRequest("d", "127.0.0.2", sink.baseUri() + "/r", "POST", Map.of(), "x"))
                .expectStatus()
                .isOk()
                .expectBody(ForwardResponse.class)
                .returnResult()
                .getResponseBody();

        assertThat(response.status()).isEqualTo(302);
        assertThat(response.headers()).containsEntry("Location", "http://169.254.169.254/latest/meta-data");
        assertThat(sink.received()).hasSize(1);
    }

    @Test
    void keepsOnlyTheConfiguredPrefixOfALargeResponseBody() {
        sink.reply(new RecordingSink.Reply(200, "x".repeat(1000), Duration.ZERO, Map.of()));

        ForwardResponse response = forward(
                        new ForwardRequest("d", "127.0.0.3", sink.baseUri() + "/", "GET", Map.of(), (byte[]) null))
                .expectStatus()
                .isOk()
                .expectBody(ForwardResponse.class)
                .returnResult()
                .getResponseBody();

        assertThat(response.body()).hasSize(64);
        assertThat(response.bodyTruncated()).isTrue();
    }

    @Test
    void answersNotHostedForAnIpThisBorderDoesNotHave() {
        forward(new ForwardRequest("d", "127.0.0.9", sink.baseUri() + "/", "POST", Map.of(), "x"))
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:ip-not-hosted")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
        assertThat(sink.received()).isEmpty();
    }

    @Test
    void answersAProblemThatTheSharedContractReadsAsAppDoes() {
        byte[] body = forward(new ForwardRequest("d", "127.0.0.9", sink.baseUri() + "/", "POST", Map.of(), "x"))
                .expectStatus()
                .isNotFound()
                .expectBody()
                .returnResult()
                .getResponseBody();
        assertThat(BorderProblem.read(JsonMapper.shared(), body)).hasValueSatisfying(problem -> {
            assertThat(problem.slug()).isEqualTo("ip-not-hosted");
            assertThat(problem.targetContacted()).isFalse();
            assertThat(problem.detail()).contains("127.0.0.9");
        });
    }

    @Test
    void answersInvalidRequestForAMalformedSourceIpOrMethod() {
        forward(new ForwardRequest("d", "127.0.0.02", sink.baseUri() + "/", "POST", Map.of(), "x"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:invalid-request");
        forward(new ForwardRequest("d", "127.0.0.2", sink.baseUri() + "/", "CONNECT", Map.of(), "x"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{not json")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:invalid-request");
    }

    @Test
    void refusesAnIpThatIsHostedButNotActive() {
        EgressIp ip = EgressIp.of("127.0.0.4");
        registrar.setStatus(ip, IpStatus.DISABLED).join();
        try {
            forward(new ForwardRequest("d", "127.0.0.4", sink.baseUri() + "/", "POST", Map.of(), "x"))
                    .expectStatus()
                    .isEqualTo(409)
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:ip-not-active")
                    .jsonPath("$.targetContacted")
                    .isEqualTo(false);
        } finally {
            registrar.setStatus(ip, IpStatus.ACTIVE).join();
        }
        assertThat(sink.received()).isEmpty();
    }

    @Test
    void refusesABodyOverTheCap() {
        forward(new ForwardRequest("d", "127.0.0.2", sink.baseUri() + "/", "POST", Map.of(), "x".repeat(1025)))
                .expectStatus()
                .isEqualTo(413)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:payload-too-large");
        assertThat(sink.received()).isEmpty();
    }

    @Test
    void answersUnreachableWhenNothingListensAtTheTarget() throws Exception {
        int closedPort = ListenPorts.nothingListening();
        forward(new ForwardRequest("d", "127.0.0.2", "http://127.0.0.1:" + closedPort + "/", "POST", Map.of(), "x"))
                .expectStatus()
                .isEqualTo(502)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-unreachable")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
    }

    @Test
    void answersTimeoutWhenTheTargetStaysSilent() {
        sink.reply(new RecordingSink.Reply(200, "late", Duration.ofSeconds(6), Map.of()));
        forward(new ForwardRequest("d", "127.0.0.3", sink.baseUri() + "/", "POST", Map.of(), "x"))
                .expectStatus()
                .isEqualTo(504)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-timeout")
                .jsonPath("$.targetContacted")
                .isEqualTo(true);
    }

    @Test
    void refusesTheBordersOwnListeningAddress() {
        forward(new ForwardRequest(
                        "d", "127.0.0.2", "http://127.0.0.1:" + port + "/ops/v1/ips", "GET", Map.of(), (byte[]) null))
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:target-denied")
                .jsonPath("$.reason")
                .isEqualTo("OWN_ADDRESS")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
    }

    @Test
    void resolvesANameOnceAndConnectsToTheVettedAddress() {
        // localhost resolves to 127.0.0.1 here, which this context allows explicitly.
        forward(new ForwardRequest(
                        "d", "127.0.0.2", "http://localhost:" + sink.port() + "/named", "POST", Map.of(), "x"))
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        assertThat(sink.received()).singleElement().satisfies(r -> {
            assertThat(r.peer()).isEqualTo(InetAddress.getByName("127.0.0.2"));
            assertThat(r.headers().get("host")).isEqualTo("localhost:" + sink.port());
        });
    }

    @Test
    void countsOutcomesPerIpInPrometheus() {
        forward(new ForwardRequest("d", "127.0.0.2", sink.baseUri() + "/", "POST", Map.of(), "x"))
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        forward(new ForwardRequest("d", "127.0.0.2", "http://10.0.0.1/", "POST", Map.of(), "x"))
                .expectStatus()
                .isForbidden()
                .expectBody()
                .returnResult();

        String scrape = web.get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();

        assertThat(scrape)
                .contains(
                        "border_egress_requests_total{",
                        "ip=\"127.0.0.2\"",
                        "outcome=\"2xx\"",
                        "border_egress_ssrf_denials_total{",
                        "reason=\"DENIED_RANGE\"",
                        "border_egress_latency_seconds_bucket{",
                        "border_egress_in_flight{",
                        "border_ips{",
                        "status=\"DISABLED\"");
        // The registration's state is the registry adapter's egress_registry_registration_state alone.
        assertThat(scrape).as("one registration gauge").doesNotContain("border_registration_state");
    }

    @Test
    void isReadyOnceRegisteredAndAlive() {
        web.get()
                .uri("/actuator/health/readiness")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo("UP");
        web.get()
                .uri("/actuator/health/liveness")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo("UP");
    }

    @Test
    void reusesOneKeepAliveConnectionForSequentialPostsFromOneIp() throws Exception {
        Set<InetSocketAddress> peers = ConcurrentHashMap.newKeySet();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                peers.add(exchange.getRemoteAddress());
                exchange.sendResponseHeaders(204, -1);
            }
        });
        server.start();
        try {
            for (int i = 0; i < 20; i++) {
                forward(new ForwardRequest(
                                "d" + i,
                                "127.0.0.3",
                                "http://127.0.0.1:" + server.getAddress().getPort() + "/",
                                "POST",
                                Map.of(),
                                "{\"i\":" + i + "}"))
                        .expectStatus()
                        .isOk()
                        .expectBody()
                        .returnResult();
            }
        } finally {
            server.stop(0);
        }
        // Squid opens a socket per POST (TIME_WAIT collapse); the Border must not. A connection goes back
        // to the pool a moment after its answer was delivered, so the next call may open one more: a few,
        // never one per request.
        assertThat(peers)
                .hasSizeLessThanOrEqualTo(3)
                .allSatisfy(p -> assertThat(p.getAddress()).isEqualTo(InetAddress.getByName("127.0.0.3")));
    }

    private WebTestClient.ResponseSpec forward(ForwardRequest request) {
        return web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(request)
                .exchange();
    }
}
