package dev.egress.border;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.testing.DoorTable;
import dev.egress.discovery.web.testing.PathVariant;
import dev.egress.discovery.web.testing.RecordingSink;
import java.net.URI;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Every door of the Border, spelled every way a raw-prefix check and the router may read differently,
 * with every token: only the door's own token on the canonical path gets through; no spelling lets a
 * wrong token in, and the forward endpoint never sends anything to the target for a refused call.
 */
@LocalBorderTest({
    "egress.border.id=border-paths",
    "egress.border.ips=127.0.0.6",
    BorderTestProperties.LOCAL,
    BorderTestProperties.OPERATOR,
    BorderTestProperties.LOOPBACK_TARGETS
})
class PathAuthorisationTest {

    enum Token {
        INTERNAL(Tokens.INTERNAL),
        OPERATOR(Tokens.OPERATOR),
        NONE(null),
        WRONG("not-a-token");

        final String value;

        Token(String value) {
            this.value = value;
        }
    }

    /**
     * A door: a path, the token it takes ({@code null}: open), and what its route answers to a trailing
     * slash (actuator's health mapping accepts one; that is the same endpoint behind the same door).
     */
    enum Door {
        FORWARD(HttpMethod.POST, "/internal/v1/egress", Token.INTERNAL, 404),
        OPS(HttpMethod.GET, "/ops/v1/ips", Token.OPERATOR, 404),
        ACTUATOR_METRICS(HttpMethod.GET, "/actuator/metrics", Token.OPERATOR, 404),
        ACTUATOR_HEALTH(HttpMethod.GET, "/actuator/health", Token.OPERATOR, 200),
        PROBE(HttpMethod.GET, "/actuator/health/liveness", null, 200);

        final HttpMethod method;
        final String path;
        final Token token;
        final int trailingSlash;

        Door(HttpMethod method, String path, Token token, int trailingSlash) {
            this.method = method;
            this.path = path;
            this.token = token;
            this.trailingSlash = trailingSlash;
        }
    }

    @AutoClose
    static final RecordingSink sink = RecordingSink.started();

    @Autowired
    WebTestClient web;

    @LocalServerPort
    int port;

    static Stream<Arguments> table() {
        return DoorTable.rows(Door.values(), Token.values(), PathAuthorisationTest::expected);
    }

    /** 400 for a spelling with two meanings; 401 for the wrong token; 404 for a route that does not exist. */
    static int expected(Door door, PathVariant variant, Token token) {
        // A variant of an open path is not open: it falls to the door of its first segment.
        Token required = door.token != null ? door.token : Token.OPERATOR;
        return DoorTable.shared(variant, door.token == null, token == required, door.trailingSlash);
    }

    @ParameterizedTest(name = "{0} {1} with {2} -> {3}")
    @MethodSource("table")
    void onlyTheDoorsOwnTokenOnTheCanonicalPathGetsThrough(Door door, PathVariant variant, Token token, int status) {
        int before = sink.received().size();
        URI uri = URI.create("http://127.0.0.1:" + port + variant.of(door.path));
        WebTestClient.RequestBodySpec request = web.method(door.method).uri(uri);
        if (token.value != null) {
            request.header("Authorization", "Bearer " + token.value);
        }
        if (door == Door.FORWARD) {
            request.contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(new ForwardRequest("d", "127.0.0.6", sink.baseUri() + "/", "POST", Map.of(), "x"));
        }
        request.exchange().expectStatus().isEqualTo(status).expectBody().returnResult();
        if (door == Door.FORWARD) {
            assertThat(sink.received())
                    .as("requests that reached the target")
                    .hasSize(before + (status == 200 ? 1 : 0));
        }
    }
}
