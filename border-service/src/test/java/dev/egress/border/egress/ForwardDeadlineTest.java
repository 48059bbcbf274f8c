package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardDeadline;
import dev.egress.discovery.web.testing.RecordingSink;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * App's deadline travels with each forward ({@code Egress-Deadline}, epoch millis): a forward that
 * arrives after it is refused without contacting the target, and the call to the target ends by it. A real
 * Border on a random port, called with the JDK's HTTP client.
 */
@LocalBorderTest({
    "egress.border.id=border-t",
    "egress.border.ips=127.0.0.2",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS,
    "egress.limits.response-timeout=30s",
    "egress.limits.call-timeout=30s"
})
class ForwardDeadlineTest {

    @AutoClose
    static final RecordingSink sink = RecordingSink.started();

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @BeforeEach
    void resetSink() {
        sink.reply(RecordingSink.Reply.ok());
        sink.clear();
    }

    @Test
    void refusesAForwardThatArrivesAfterItsDeadlineWithoutContactingTheTarget() throws Exception {
        HttpResponse<String> response = forward(Long.toString(System.currentTimeMillis() - 1_500), "late");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("type").asString()).isEqualTo("urn:egress:problem:deadline-exceeded");
        assertThat(problem.get("targetContacted").asBoolean()).isFalse();
        assertThat(problem.get("detail").asString()).contains("after its deadline");
        assertThat(sink.received()).as("the target saw nothing").isEmpty();
    }

    @Test
    void sendsAForwardThatArrivesBeforeItsDeadline() throws Exception {
        HttpResponse<String> response = forward(Long.toString(System.currentTimeMillis() + 30_000), "in-time");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(sink.received()).hasSize(1);
    }

    @Test
    void endsTheCallToASlowTargetByTheDeadlineRatherThanTheCallTimeout() throws Exception {
        sink.reply(
                new RecordingSink.Reply(200, "{}", Duration.ofSeconds(20), Map.of("Content-Type", "application/json")));
        long start = System.nanoTime();

        HttpResponse<String> response = forward(Long.toString(System.currentTimeMillis() + 1_000), "slow");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(504);
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("type").asString()).isEqualTo("urn:egress:problem:target-timeout");
        assertThat(problem.get("targetContacted").asBoolean()).isTrue();
        assertThat(took)
                .as("bounded by the 1 s deadline, not the 30 s call timeout")
                .isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void refusesADeadlineThatIsNotEpochMillis() throws Exception {
        HttpResponse<String> response = forward("tomorrow", "bad");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.body()).contains("Egress-Deadline");
        assertThat(sink.received()).isEmpty();
    }

    private HttpResponse<String> forward(String deadline, String id) throws Exception {
        String body = """
                {"deliveryId":"%s","sourceIp":"127.0.0.2","url":"%s/hook","method":"POST","headers":{},"body":"x"}""".formatted(id, sink.baseUri());
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/internal/v1/egress"))
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header(ForwardDeadline.HEADER, deadline)
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
