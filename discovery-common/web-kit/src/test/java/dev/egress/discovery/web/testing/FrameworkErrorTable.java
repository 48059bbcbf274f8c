package dev.egress.discovery.web.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ResponseStatusException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The framework errors both services must answer alike (status and problem type), as one table that
 * App's and Border's advice tests both run. Real WebFlux dispatching over a small controller, without a
 * server: the router's own errors (no route, wrong method, wrong media type, unreadable or oversized
 * body) are raised by the framework itself; the rest are thrown as the framework would raise them.
 */
public final class FrameworkErrorTable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A body cap small enough for {@link Row} "oversized body" to exceed. */
    private static final int MAX_IN_MEMORY = 64;

    /**
     * One framework error.
     *
     * @param name   what happens
     * @param call   the request that causes it
     * @param status the status both services answer
     * @param slug   the problem type slug both services answer
     */
    public record Row(String name, Function<WebTestClient, WebTestClient.ResponseSpec> call, int status, String slug) {
        @Override
        public String toString() {
            return name;
        }
    }

    private FrameworkErrorTable() {}

    /**
     * The table.
     *
     * @return every row
     */
    public static Stream<Row> rows() {
        return Stream.of(
                new Row("unknown path", c -> c.get().uri("/nowhere").exchange(), 404, "not-found"),
                new Row("method not allowed", c -> c.delete().uri("/json").exchange(), 405, "method-not-allowed"),
                new Row(
                        "unsupported media type",
                        c -> c.post()
                                .uri("/json")
                                .contentType(MediaType.TEXT_PLAIN)
                                .bodyValue("x")
                                .exchange(),
                        415,
                        "unsupported-media-type"),
                new Row(
                        "unreadable body",
                        c -> c.post()
                                .uri("/json")
                                .contentType(MediaType.APPLICATION_JSON)
                                .bodyValue("{not json")
                                .exchange(),
                        400,
                        "invalid-request"),
                new Row(
                        "oversized body",
                        c -> c.post()
                                .uri("/json")
                                .contentType(MediaType.APPLICATION_JSON)
                                .bodyValue("{\"text\":\"" + "x".repeat(4 * MAX_IN_MEMORY) + "\"}")
                                .exchange(),
                        413,
                        "payload-too-large"),
                new Row(
                        "not acceptable",
                        c -> c.get().uri("/throw/not-acceptable").exchange(),
                        406,
                        "not-acceptable"),
                new Row(
                        "body over a limit",
                        c -> c.get().uri("/throw/buffer-limit").exchange(),
                        413,
                        "payload-too-large"),
                new Row("413 status", c -> c.get().uri("/throw/status-413").exchange(), 413, "payload-too-large"),
                new Row(
                        "another 4xx status",
                        c -> c.get().uri("/throw/status-409").exchange(),
                        409,
                        "invalid-request"),
                new Row("429 status", c -> c.get().uri("/throw/status-429").exchange(), 429, "too-many-requests"),
                new Row(
                        "request not received in time",
                        c -> c.get().uri("/throw/channel").exchange(),
                        408,
                        "request-timeout"));
    }

    /**
     * Sends the row's request through a service's advice and checks the status and the problem type.
     *
     * @param row    the row
     * @param advice the service's {@code @RestControllerAdvice}
     * @return the problem body, for the service's own checks
     */
    public static JsonNode answer(Row row, Object advice) {
        EntityExchangeResult<byte[]> result =
                row.call().apply(client(advice)).expectBody().returnResult();
        assertThat(result.getStatus().value()).as(row.name()).isEqualTo(row.status());
        assertThat(result.getResponseHeaders().getContentType())
                .as(row.name())
                .isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        JsonNode body = JSON.readTree(result.getResponseBody());
        assertThat(body.get("type").stringValue()).as(row.name()).isEqualTo("urn:egress:problem:" + row.slug());
        assertThat(body.get("status").intValue()).as(row.name()).isEqualTo(row.status());
        return body;
    }

    /**
     * A client dispatching to the table's controller through a service's advice.
     *
     * @param advice the service's {@code @RestControllerAdvice}
     * @return the client
     */
    public static WebTestClient client(Object advice) {
        return WebTestClient.bindToController(new Endpoints())
                .controllerAdvice(advice)
                .httpMessageCodecs(codecs -> codecs.defaultCodecs().maxInMemorySize(MAX_IN_MEMORY))
                .build();
    }

    /** The endpoints the table calls. */
    @RestController
    static final class Endpoints {

        /**
         * Takes JSON only.
         *
         * @param body any JSON object
         * @return the same
         */
        @PostMapping(path = "/json", consumes = MediaType.APPLICATION_JSON_VALUE)
        Map<String, Object> json(@RequestBody Map<String, Object> body) {
            return body;
        }

        /**
         * Throws what the framework would throw.
         *
         * @param what which error
         * @return never
         */
        @GetMapping("/throw/{what}")
        String raise(@PathVariable("what") String what) {
            throw switch (what) {
                case "not-acceptable" -> new NotAcceptableStatusException(List.of(MediaType.APPLICATION_JSON));
                case "buffer-limit" -> new DataBufferLimitException("Exceeded limit on max bytes to buffer : 64");
                case "status-413" -> new ResponseStatusException(HttpStatus.CONTENT_TOO_LARGE);
                case "status-409" -> new ResponseStatusException(HttpStatus.CONFLICT, "already there");
                case "status-429" -> new ResponseStatusException(HttpStatus.TOO_MANY_REQUESTS);
                case "channel" -> new ChannelException("request timed out");
                case "bug" -> new IllegalStateException("a bug");
                default -> new IllegalArgumentException(what);
            };
        }
    }
}
