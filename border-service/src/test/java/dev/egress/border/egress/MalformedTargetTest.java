package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.RawTarget;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** A target that answers with broken HTTP gets a typed problem, and the log does not grow with it. */
@LocalBorderTest({
    "egress.border.id=border-garbage",
    "egress.border.ips=127.0.0.2",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS
})
@ExtendWith(OutputCaptureExtension.class)
class MalformedTargetTest {

    static RawTarget target;

    @Autowired
    WebTestClient web;

    @BeforeAll
    static void start() throws Exception {
        target = RawTarget.start();
    }

    @AfterAll
    static void stop() throws Exception {
        target.close();
    }

    static String answer(String kind) {
        return switch (kind) {
            case "oversized-header" ->
                "HTTP/1.1 200 OK\r\nX-Big: " + "a".repeat(20_000) + "\r\nContent-Length: 0\r\n\r\n";
            case "oversized-status-line" -> "HTTP/1.1 200 " + "O".repeat(10_000) + "\r\nContent-Length: 0\r\n\r\n";
            case "garbage" -> "\u0000\u0001BLAH BLAH\r\n\r\nmore garbage\r\n\r\n";
            case "bad-chunk" -> "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZZZ\r\nxx\r\n0\r\n\r\n";
            case "two-lengths" -> "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello";
            case "log-injection" -> "HTTP/1.1 2x0 OK\r\nFAKE LOG LINE\r\n\r\n";
            default -> throw new IllegalArgumentException(kind);
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "oversized-header",
                "oversized-status-line",
                "garbage",
                "bad-chunk",
                "two-lengths",
                "log-injection"
            })
    void answersTargetProtocolErrorWithOneRateLimitedLogLineAndNoStackTraces(String kind, CapturedOutput output) {
        target.answer(answer(kind).getBytes(StandardCharsets.ISO_8859_1));
        int before = output.getAll().length();
        for (int i = 0; i < 20; i++) {
            web.post()
                    .uri("/internal/v1/egress")
                    .header("Authorization", "Bearer " + Tokens.INTERNAL)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(new ForwardRequest(
                            "d" + i,
                            "127.0.0.2",
                            "http://127.0.0.1:" + target.port() + "/hook",
                            "POST",
                            Map.of(),
                            "{}"))
                    .exchange()
                    .expectStatus()
                    .isEqualTo(502)
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("urn:egress:problem:target-protocol-error")
                    .jsonPath("$.targetContacted")
                    .isEqualTo(true);
        }
        String logged = output.getAll().substring(before);
        assertThat(logged).doesNotContain("\tat io.netty").doesNotContain("\tat reactor.");
        assertThat(logged.lines().filter(l -> l.contains("malformed response")).count())
                .isLessThanOrEqualTo(1);
        assertThat(logged.lines().filter(l -> l.startsWith("FAKE LOG LINE"))).isEmpty();
    }
}
