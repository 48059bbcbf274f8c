package dev.egress.border;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.testing.DoorTable;
import dev.egress.discovery.web.testing.DoorTable.Door;
import dev.egress.discovery.web.testing.DoorTable.Token;
import dev.egress.discovery.web.testing.PathVariant;
import dev.egress.discovery.web.testing.RecordingSink;
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

    static final Token INTERNAL = new Token("INTERNAL", Tokens.INTERNAL);
    static final Token OPERATOR = new Token("OPERATOR", Tokens.OPERATOR);
    static final Token[] TOKENS = {INTERNAL, OPERATOR, new Token("NONE", null), new Token("WRONG", "not-a-token")};

    static final Door FORWARD = new Door("FORWARD", HttpMethod.POST, "/internal/v1/egress", INTERNAL, 404);
    static final Door[] DOORS = {
        FORWARD,
        new Door("OPS", HttpMethod.GET, "/ops/v1/ips", OPERATOR, 404),
        new Door("ACTUATOR_METRICS", HttpMethod.GET, "/actuator/metrics", OPERATOR, 404),
        new Door("ACTUATOR_HEALTH", HttpMethod.GET, "/actuator/health", OPERATOR, 200),
        new Door("PROBE", HttpMethod.GET, "/actuator/health/liveness", null, 200)
    };

    @AutoClose
    static final RecordingSink sink = RecordingSink.started();

    @Autowired
    WebTestClient web;

    @LocalServerPort
    int port;

    static Stream<Arguments> table() {
        return DoorTable.rows(DOORS, TOKENS, PathAuthorisationTest::expected);
    }

    /** 400 for a spelling with two meanings; 401 for the wrong token; 404 for a route that does not exist. */
    static int expected(Door door, PathVariant variant, Token token) {
        // A variant of an open path is not open: it falls to the door of its first segment.
        Token required = door.token() != null ? door.token() : OPERATOR;
        return DoorTable.shared(variant, door.token() == null, token.equals(required), door.trailingSlash());
    }

    @ParameterizedTest(name = "{0} {1} with {2} -> {3}")
    @MethodSource("table")
    void onlyTheDoorsOwnTokenOnTheCanonicalPathGetsThrough(Door door, PathVariant variant, Token token, int status) {
        int before = sink.received().size();
        WebTestClient.RequestBodySpec request = DoorTable.request(web, port, door, variant, token);
        if (door == FORWARD) {
            request.contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(new ForwardRequest("d", "127.0.0.6", sink.baseUri() + "/", "POST", Map.of(), "x"));
        }
        request.exchange().expectStatus().isEqualTo(status).expectBody().returnResult();
        if (door == FORWARD) {
            assertThat(sink.received())
                    .as("requests that reached the target")
                    .hasSize(before + (status == 200 ? 1 : 0));
        }
    }
}
