package dev.egress.border;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.testing.RecordingSink;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

@LocalBorderTest({
    "egress.border.id=border-auth",
    "egress.border.ips=127.0.0.6",
    BorderTestProperties.LOCAL,
    BorderTestProperties.OPERATOR,
    BorderTestProperties.LOOPBACK_TARGETS
})
class AuthenticationTest {

    @AutoClose
    static final RecordingSink sink = RecordingSink.started();

    @Autowired
    WebTestClient web;

    @ParameterizedTest(name = "forward with [{0}] -> {1}")
    @CsvSource({
        "'', 401",
        "Bearer wrong, 401",
        "Bearer " + Tokens.OPERATOR + ", 401",
        "Basic aW50ZXJuYWw6eA==, 401",
        "Bearer " + Tokens.INTERNAL + "x, 401",
        "Bearer " + Tokens.INTERNAL + ", 200",
        "bearer " + Tokens.INTERNAL + ", 200"
    })
    void forwardEndpointTakesOnlyTheInternalToken(String authorization, int status) {
        WebTestClient.RequestBodySpec request =
                web.post().uri("/internal/v1/egress").contentType(MediaType.APPLICATION_JSON);
        if (!authorization.isEmpty()) {
            request.header("Authorization", authorization);
        }
        WebTestClient.ResponseSpec response = request.bodyValue(
                        new ForwardRequest("d", "127.0.0.6", sink.baseUri() + "/", "POST", Map.of(), "x"))
                .exchange()
                .expectStatus()
                .isEqualTo(status);
        if (status == 401) {
            response.expectHeader()
                    .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectHeader()
                    .valueEquals("WWW-Authenticate", "Bearer")
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:unauthorized")
                    .jsonPath("$.targetContacted")
                    .isEqualTo(false);
        } else {
            response.expectBody().returnResult();
        }
    }

    @ParameterizedTest(name = "GET ops with [{0}] -> {1}")
    @CsvSource({
        "'', 401",
        "Bearer wrong, 401",
        "Bearer " + Tokens.INTERNAL + ", 401",
        "Bearer " + Tokens.OPERATOR + ", 200"
    })
    void operatorEndpointTakesOnlyTheOperatorToken(String authorization, int status) {
        WebTestClient.RequestHeadersSpec<?> request = web.get().uri("/ops/v1/ips");
        if (!authorization.isEmpty()) {
            request.header("Authorization", authorization);
        }
        request.exchange().expectStatus().isEqualTo(status).expectBody().returnResult();
    }

    @ParameterizedTest(name = "PUT ops with [{0}] -> {1}")
    @CsvSource({
        "'', 401",
        "Bearer wrong, 401",
        "Bearer " + Tokens.INTERNAL + ", 401",
        "Bearer " + Tokens.OPERATOR + ", 200"
    })
    void operatorStatusChangeTakesOnlyTheOperatorToken(String authorization, int status) {
        WebTestClient.RequestHeadersSpec<?> request = web.put()
                .uri("/ops/v1/ips/127.0.0.6")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("status", "ACTIVE"));
        if (!authorization.isEmpty()) {
            request.header("Authorization", authorization);
        }
        request.exchange().expectStatus().isEqualTo(status).expectBody().returnResult();
    }

    @Test
    void probesAndPrometheusAreOpenButOtherActuatorEndpointsAreNot() {
        web.get()
                .uri("/actuator/health/liveness")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        web.get()
                .uri("/actuator/health/readiness")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        web.get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
        web.get()
                .uri("/actuator/metrics")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .returnResult();
        web.get()
                .uri("/actuator/health")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .returnResult();
        web.get()
                .uri("/actuator/metrics")
                .header("Authorization", "Bearer " + Tokens.OPERATOR)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult();
    }
}
