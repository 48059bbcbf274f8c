package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import dev.egress.border.testing.Tokens;
import dev.egress.discovery.web.forward.ForwardFrame;
import dev.egress.discovery.web.forward.ForwardRequest;
import dev.egress.discovery.web.forward.ForwardResponse;
import dev.egress.discovery.web.testing.RecordingSink;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;
import tools.jackson.databind.json.JsonMapper;

/**
 * The forward call's raw form ({@link ForwardFrame}) at the real Border: the caller's bytes reach the target
 * unchanged and the target's come back after the head; a malformed frame is 400 with nothing sent; problems
 * stay problem+json. The JSON form is {@link ForwardEndpointTest}'s.
 */
@LocalBorderTest({
    "egress.border.id=border-raw",
    "egress.border.ips=127.0.0.2,127.0.0.3",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS,
    "egress.limits.max-request-body=1KB",
    "egress.limits.max-response-body=64B",
    "egress.limits.response-timeout=2s"
})
class RawForwardFormTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ACCEPT = ForwardFrame.MEDIA_TYPE + ", application/problem+json";

    @AutoClose
    static final RecordingSink sink = RecordingSink.started();

    @Autowired
    WebTestClient web;

    @BeforeEach
    void resetSink() {
        sink.reply(RecordingSink.Reply.ok());
        sink.clear();
    }

    @Test
    void sendsTheBodysBytesUnchangedAndAnswersWithTheTargetsBytesAfterTheHead() {
        byte[] bytes = {(byte) 0xff, 0x00, (byte) 0xc3, 0x28, '"', '\\', '{', '1', '.', '1', '0', '}'};
        sink.reply(new RecordingSink.Reply(201, "\u00e9t\u00e9", Duration.ZERO, Map.of()));

        byte[] answer = post(frame(request("POST", Map.of("Content-Type", "application/x-raw"), bytes)))
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentType(ForwardFrame.MEDIA_TYPE)
                .expectBody(byte[].class)
                .returnResult()
                .getResponseBody();

        assertThat(sink.received()).singleElement().satisfies(r -> {
            assertThat(r.bytes()).isEqualTo(bytes);
            assertThat(r.headers()).containsEntry("content-type", "application/x-raw");
            assertThat(r.peer().getHostAddress()).isEqualTo("127.0.0.2");
        });
        ForwardResponse response = ForwardFrame.readResponse(JSON, answer);
        assertThat(response.status()).isEqualTo(201);
        assertThat(response.body()).isEqualTo("\u00e9t\u00e9");
        assertThat(response.borderId()).isEqualTo("border-raw");
        assertThat(response.deliveryId()).isEqualTo("d-raw");
        assertThat(response.bodyTruncated()).isFalse();
    }

    @Test
    void aRequestWithoutABodySendsNoneAndALongAnswerIsCutAtTheCap() {
        sink.reply(new RecordingSink.Reply(200, "x".repeat(1000), Duration.ZERO, Map.of()));

        byte[] answer = post(frame(request("GET", Map.of(), null)))
                .expectStatus()
                .isOk()
                .expectBody(byte[].class)
                .returnResult()
                .getResponseBody();

        assertThat(sink.received()).singleElement().satisfies(r -> {
            assertThat(r.method()).isEqualTo("GET");
            assertThat(r.bytes()).isEmpty();
            assertThat(r.headers()).doesNotContainKey("content-length");
        });
        ForwardResponse response = ForwardFrame.readResponse(JSON, answer);
        assertThat(response.body()).isEqualTo("x".repeat(64));
        assertThat(response.bodyTruncated()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"empty", "short-prefix", "head-past-the-end", "negative-head", "not-json", "bytes-after-none"})
    void aMalformedFrameIsInvalidRequestAndNothingIsSent(String kind) {
        byte[] head = ForwardFrame.requestHead(JSON, request("GET", Map.of(), null));
        byte[] frame = switch (kind) {
            case "empty" -> new byte[0];
            case "short-prefix" -> new byte[] {0, 0};
            case "head-past-the-end" -> ByteBuffer.allocate(8).putInt(100).array();
            case "negative-head" -> ByteBuffer.allocate(8).putInt(-1).array();
            case "not-json" ->
                ByteBuffer.allocate(7)
                        .putInt(3)
                        .put("{{{".getBytes(StandardCharsets.US_ASCII))
                        .array();
            case "bytes-after-none" ->
                ByteBuffer.allocate(head.length + 1).put(head).put((byte) 'x').array();
            default -> throw new IllegalArgumentException(kind);
        };

        post(frame)
                .expectStatus()
                .isBadRequest()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:invalid-request")
                .jsonPath("$.targetContacted")
                .isEqualTo(false);
        assertThat(sink.received()).isEmpty();
    }

    @Test
    void aFrameSentInManyChunksArrivesWhole() {
        byte[] bytes = new byte[1000];
        new Random(27).nextBytes(bytes);
        byte[] frame = frame(request("POST", Map.of(), bytes));
        DefaultDataBufferFactory buffers = DefaultDataBufferFactory.sharedInstance;
        // Chunked transfer, 10 pieces: the server joins buffers of several reads, the head split across two.
        Flux<DataBuffer> pieces = Flux.range(0, 10).map(i -> {
            int from = i * frame.length / 10;
            int to = (i + 1) * frame.length / 10;
            return buffers.wrap(Arrays.copyOfRange(frame, from, to));
        });

        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .header("Accept", ACCEPT)
                .contentType(MediaType.parseMediaType(ForwardFrame.MEDIA_TYPE))
                .body(pieces, DataBuffer.class)
                .exchange()
                .expectStatus()
                .isOk();

        assertThat(sink.received())
                .singleElement()
                .satisfies(r -> assertThat(r.bytes()).isEqualTo(bytes));
    }

    @Test
    void aBodyOverTheCapIsPayloadTooLarge() {
        post(frame(request("POST", Map.of(), new byte[1025])))
                .expectStatus()
                .isEqualTo(413)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:payload-too-large");
        assertThat(sink.received()).isEmpty();
    }

    @Test
    void aProblemIsStillProblemJson() {
        ForwardRequest notHosted =
                new ForwardRequest("d-raw", "127.0.0.9", sink.baseUri() + "/", "POST", Map.of(), new byte[] {1});

        post(frame(notHosted))
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("urn:egress:problem:ip-not-hosted");
        assertThat(sink.received()).isEmpty();
    }

    @Test
    void anotherContentTypeIsRefusedWith415BeforeAnythingIsSent() {
        web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .contentType(MediaType.TEXT_PLAIN)
                .bodyValue("hello")
                .exchange()
                .expectStatus()
                .isEqualTo(415);
        assertThat(sink.received()).isEmpty();
    }

    @Test
    void withoutTheInternalTokenNothingIsSent() {
        web.post()
                .uri("/internal/v1/egress")
                .contentType(MediaType.parseMediaType(ForwardFrame.MEDIA_TYPE))
                .bodyValue(frame(request("POST", Map.of(), new byte[] {1})))
                .exchange()
                .expectStatus()
                .isUnauthorized();
        assertThat(sink.received()).isEmpty();
    }

    private static ForwardRequest request(String method, Map<String, String> headers, byte[] body) {
        return new ForwardRequest("d-raw", "127.0.0.2", sink.baseUri() + "/hook", method, headers, body);
    }

    private static byte[] frame(ForwardRequest request) {
        byte[] head = ForwardFrame.requestHead(JSON, request);
        byte[] body = request.body() == null ? new byte[0] : request.body();
        return ByteBuffer.allocate(head.length + body.length)
                .put(head)
                .put(body)
                .array();
    }

    private WebTestClient.ResponseSpec post(byte[] frame) {
        return web.post()
                .uri("/internal/v1/egress")
                .header("Authorization", "Bearer " + Tokens.INTERNAL)
                .header("Accept", ACCEPT)
                .contentType(MediaType.parseMediaType(ForwardFrame.MEDIA_TYPE))
                .bodyValue(frame)
                .exchange();
    }
}
