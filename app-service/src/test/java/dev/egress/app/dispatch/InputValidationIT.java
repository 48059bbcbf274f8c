package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.support.AppITSupport;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Malformed input of every kind is a 4xx problem+json naming the rule — never a 5xx. */
class InputValidationIT extends AppITSupport {

    static Stream<Arguments> badRequests() {
        String url = "\"url\":\"http://127.0.0.1:9/hook\"";
        return Stream.of(
                Arguments.of("empty body", "", 400),
                Arguments.of("not JSON", "hello", 400),
                Arguments.of("truncated JSON", "{\"tenantId\":\"acme\"", 400),
                Arguments.of("trailing garbage", "{\"tenantId\":\"acme\"," + url + ",\"payload\":1} x", 400),
                Arguments.of("array root", "[1,2]", 400),
                Arguments.of("string root", "\"acme\"", 400),
                Arguments.of("missing tenantId", "{" + url + ",\"payload\":{}}", 400),
                Arguments.of("missing url", "{\"tenantId\":\"acme\",\"payload\":{}}", 400),
                Arguments.of("missing payload", "{\"tenantId\":\"acme\"," + url + "}", 400),
                Arguments.of("tenantId number", "{\"tenantId\":7," + url + ",\"payload\":{}}", 400),
                Arguments.of("tenantId blank", "{\"tenantId\":\" \"," + url + ",\"payload\":{}}", 400),
                Arguments.of("url number", "{\"tenantId\":\"acme\",\"url\":5,\"payload\":{}}", 400),
                Arguments.of("url relative", "{\"tenantId\":\"acme\",\"url\":\"/hook\",\"payload\":{}}", 400),
                Arguments.of("url ftp", "{\"tenantId\":\"acme\",\"url\":\"ftp://127.0.0.1/x\",\"payload\":{}}", 400),
                Arguments.of(
                        "url unparsable",
                        "{\"tenantId\":\"acme\",\"url\":\"http://exa mple.com/\",\"payload\":{}}",
                        400),
                Arguments.of(
                        "url with credentials",
                        "{\"tenantId\":\"acme\",\"url\":\"http://u:p@127.0.0.1/\",\"payload\":{}}",
                        400),
                Arguments.of(
                        "method lower case",
                        "{\"tenantId\":\"acme\"," + url + ",\"method\":\"post\",\"payload\":{}}",
                        400),
                Arguments.of(
                        "method unknown",
                        "{\"tenantId\":\"acme\"," + url + ",\"method\":\"CONNECT\",\"payload\":{}}",
                        400),
                Arguments.of("method number", "{\"tenantId\":\"acme\"," + url + ",\"method\":1,\"payload\":{}}", 400),
                Arguments.of("headers array", "{\"tenantId\":\"acme\"," + url + ",\"headers\":[],\"payload\":{}}", 400),
                Arguments.of(
                        "header value number",
                        "{\"tenantId\":\"acme\"," + url + ",\"headers\":{\"X-A\":1},\"payload\":{}}",
                        400),
                Arguments.of(
                        "header name invalid",
                        "{\"tenantId\":\"acme\"," + url + ",\"headers\":{\"X A\":\"1\"},\"payload\":{}}",
                        400),
                Arguments.of(
                        "header CRLF",
                        "{\"tenantId\":\"acme\"," + url + ",\"headers\":{\"X-A\":\"a\\r\\nB: c\"},\"payload\":{}}",
                        400),
                Arguments.of(
                        "reserved header",
                        "{\"tenantId\":\"acme\"," + url + ",\"headers\":{\"Host\":\"x\"},\"payload\":{}}",
                        400),
                Arguments.of(
                        "unknown field",
                        "{\"tenantId\":\"acme\"," + url + ",\"header\":{\"X-Sig\":\"s\"},\"payload\":{}}",
                        400),
                Arguments.of(
                        "missing payload of a POST", "{\"tenantId\":\"acme\"," + url + ",\"method\":\"POST\"}", 400),
                Arguments.of(
                        "duplicate key",
                        "{\"tenantId\":\"acme\",\"tenantId\":\"beta\"," + url + ",\"payload\":{}}",
                        400),
                Arguments.of(
                        "oversized payload",
                        "{\"tenantId\":\"acme\"," + url + ",\"payload\":\"" + "x".repeat(1_100_000) + "\"}",
                        413),
                Arguments.of("unknown tenant", "{\"tenantId\":\"ghost\"," + url + ",\"payload\":{}}", 404));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("badRequests")
    void badInputIsA4xxProblemNeverA5xx(String name, String body, int expected) {
        EntityExchangeResult<byte[]> result = client().post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectBody()
                .returnResult();

        assertThat(result.getStatus().value()).as(name).isEqualTo(expected);
        assertThat(result.getResponseHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(new String(result.getResponseBody())).contains("\"type\":\"urn:egress:problem:");
    }

    @ParameterizedTest(name = "Idempotency-Key ''{0}'' -> 400")
    @MethodSource("badKeys")
    void aMalformedIdempotencyKeyIs400(String key) {
        client().post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .header("Idempotency-Key", key)
                .bodyValue("{\"tenantId\":\"acme\",\"url\":\"http://127.0.0.1:9/\",\"payload\":1}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:invalid-request");
    }

    static Stream<String> badKeys() {
        return Stream.of("has space", "k".repeat(256));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTokens")
    void aMissingOrWrongTokenIs401(String name, String header) {
        var spec = WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(30))
                .build()
                .post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON);
        if (header != null) {
            spec = spec.header("Authorization", header);
        }
        spec.bodyValue("{}")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectHeader()
                .valueEquals("WWW-Authenticate", "Bearer")
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:unauthorized");
    }

    static Stream<Arguments> badTokens() {
        return Stream.of(
                Arguments.of("no header", null),
                Arguments.of("wrong token", "Bearer nope"),
                Arguments.of("prefix of a token", "Bearer test-api"),
                Arguments.of("basic auth", "Basic dGVzdA=="),
                Arguments.of("empty bearer", "Bearer "));
    }

    @Test
    void anUnknownFieldIsNamedInTheProblem() {
        client().post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"tenantId\":\"acme\",\"url\":\"http://127.0.0.1:9/\",\"header\":{},\"payload\":1}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("header")
                .jsonPath("$.detail")
                .value(detail -> assertThat((String) detail).contains("unknown field"));
    }

    @ParameterizedTest(name = "Content-Type {0} -> 415")
    @MethodSource("notJson")
    void aBodyThatIsNotDeclaredJsonIs415(String contentType) {
        client().post()
                .uri("/v1/deliveries")
                .header("Content-Type", contentType)
                .bodyValue("{\"tenantId\":\"acme\",\"url\":\"http://127.0.0.1:9/\",\"payload\":1}")
                .exchange()
                .expectStatus()
                .isEqualTo(415)
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:unsupported-media-type")
                .jsonPath("$.detail")
                .value(detail -> assertThat((String) detail).contains("expected: application/json"));
    }

    static Stream<String> notJson() {
        return Stream.of("text/plain", "application/x-www-form-urlencoded");
    }

    @Test
    void aWrongPathSaysWhichCallHasNoEndpointInsteadOfTheFrameworksWords() {
        client().post()
                .uri("/v1/delivery")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{}")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:not-found")
                .jsonPath("$.detail")
                .isEqualTo("no endpoint answers POST /v1/delivery (the API is described at /v3/api-docs)");
    }

    @Test
    void aShorthandIpv4HostIsExplained() {
        client().post()
                .uri("/v1/deliveries")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"tenantId\":\"acme\",\"url\":\"http://127.1:9999/\",\"payload\":1}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.detail")
                .value(detail -> assertThat((String) detail)
                        .contains("'127.1:9999' has no usable host")
                        .contains("four parts"));
    }
}
