package dev.egress.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.discovery.web.testing.RecordingSink;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The caller's bytes reach the target unchanged, through the real processes on the trust chain (App, one
 * Border, the coordination node) to a sink that records every byte: a JSON {@code payload} with the
 * numbers, escapes and whitespace a re-encoding would change, the raw {@code body} and {@code bodyBase64}
 * forms with their {@code Content-Type}, and header values with control characters refused at App and,
 * when App is bypassed, at the Border — without the refused call keeping the Border's only slot.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExactBodyIT {

    /** One slot per IP, so a refused call that kept its slot would turn the next call into a 429. */
    static final Platform.Layout LAYOUT = new Platform.Layout(
            Map.of("border-a", List.of("127.0.0.2", "127.0.0.3")),
            """
            tenants:
              - id: acme
                dedicatedIps: [127.0.0.3]
            """,
            1,
            List.of("--egress.limits.max-concurrency-per-ip=1"),
            List.of());

    private Platform platform;
    private RecordingSink sink;

    @BeforeAll
    void start() throws Exception {
        sink = RecordingSink.start();
        platform = Platform.start(LAYOUT);
    }

    @AfterAll
    void stop() {
        if (platform != null) {
            platform.close();
        }
        if (sink != null) {
            sink.close();
        }
    }

    @BeforeEach
    void clearSink() {
        sink.clear();
        sink.reply(RecordingSink.Reply.ok());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> platform.liveBorders(0).equals(Set.of("border-a")));
    }

    private Http.Response deliver(String fields) {
        return platform.http.post(
                platform.appUri(0, "/v1/deliveries"),
                Platform.API_TOKEN,
                "{\"tenantId\":\"acme\",\"url\":\"" + sink.baseUri() + "/hook\"," + fields + "}");
    }

    private RecordingSink.Received delivered(Http.Response response) {
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        assertThat(response.json().get("egressIp").asString()).isEqualTo("127.0.0.3");
        assertThat(sink.received()).hasSize(1);
        return sink.received().get(0);
    }

    @Test
    void deliversTheJsonPayloadsBytesExactlyAsTheCallerWroteThem() {
        String payload = "{\"amount\": 0.30000000000000000001, \"n\": 1.10, \"e\": 1E+2,\n"
                + "  \"s\": \"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\/\", \"raw\": \"\u00e9t\u00e9\",\t\"a\": [ 1 , -0 ] }";

        RecordingSink.Received received = delivered(deliver("\"payload\" : " + payload + " "));

        assertThat(new String(received.bytes(), StandardCharsets.UTF_8)).isEqualTo(payload);
        assertThat(received.bytes()).isEqualTo(payload.getBytes(StandardCharsets.UTF_8));
        assertThat(received.headers()).containsEntry("content-type", "application/json");
    }

    @Test
    void deliversTheReadmesExampleAsItsThirtyThreeBytes() {
        RecordingSink.Received received = delivered(deliver("\"payload\":{\"event\":\"order.created\",\"id\":42}"));

        assertThat(received.body()).isEqualTo("{\"event\":\"order.created\",\"id\":42}");
        assertThat(received.bytes()).hasSize(33);
    }

    @Test
    void deliversAFormEncodedTextBodyWithItsContentType() {
        RecordingSink.Received received = delivered(
                deliver(
                        "\"headers\":{\"Content-Type\":\"application/x-www-form-urlencoded\"},\"body\":\"a=1&b=%C3%A9&c=x+y\""));

        assertThat(received.bytes()).isEqualTo("a=1&b=%C3%A9&c=x+y".getBytes(StandardCharsets.US_ASCII));
        assertThat(received.headers()).containsEntry("content-type", "application/x-www-form-urlencoded");
    }

    @Test
    void deliversAnXmlTextBodyWithItsContentType() {
        String xml = "<?xml version=\"1.0\"?>\n<order id=\"42\">\u00e9t\u00e9 &amp; \u65e5\u672c</order>";
        String escaped = xml.replace("\"", "\\\"").replace("\n", "\\n");

        RecordingSink.Received received = delivered(deliver(
                "\"headers\":{\"Content-Type\":\"application/xml; charset=utf-8\"},\"body\":\"" + escaped + "\""));

        assertThat(received.bytes()).isEqualTo(xml.getBytes(StandardCharsets.UTF_8));
        assertThat(received.headers()).containsEntry("content-type", "application/xml; charset=utf-8");
    }

    @Test
    void deliversBytesThatAreNotUtf8FromBodyBase64() {
        byte[] bytes = {(byte) 0xff, (byte) 0xfe, 0x00, (byte) 0xc3, 0x28, (byte) 0x80, 0x7f, '\r', '\n'};

        RecordingSink.Received received =
                delivered(deliver("\"bodyBase64\":\"" + Base64.getEncoder().encodeToString(bytes) + "\""));

        assertThat(received.bytes()).isEqualTo(bytes);
        assertThat(received.headers()).containsEntry("content-type", "application/octet-stream");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\\u0001b", "a\\u007fb"})
    void refusesAHeaderValueWithAControlCharacterAtApp(String value) {
        Http.Response response = deliver("\"headers\":{\"X-Sig\":\"" + value + "\"},\"payload\":{}");

        assertThat(response.status()).as(response.text()).isEqualTo(400);
        assertThat(response.json().get("type").asString()).isEqualTo("urn:egress:problem:invalid-request");
        assertThat(response.json().get("field").asString()).isEqualTo("headers.X-Sig");
        assertThat(sink.received()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\\u0001b", "a\\u007fb"})
    void refusesAHeaderValueWithAControlCharacterAtTheBorderAndKeepsItsSlotFree(String value) {
        String forward = "{\"deliveryId\":\"x\",\"sourceIp\":\"127.0.0.3\",\"url\":\"" + sink.baseUri()
                + "/hook\",\"method\":\"POST\",\"headers\":{\"X-Sig\":\"" + value + "\"},\"bodyBase64\":\"e30=\"}";

        Http.Response refused = platform.http.post(
                platform.borderUri("border-a", "/internal/v1/egress"), Platform.INTERNAL_TOKEN, forward);

        assertThat(refused.status()).as(refused.text()).isEqualTo(400);
        assertThat(refused.json().get("type").asString()).isEqualTo("urn:egress:problem:invalid-request");
        assertThat(refused.json().get("detail").asString()).startsWith("headers.X-Sig: U+");
        assertThat(sink.received()).isEmpty();
        // The only slot of 127.0.0.3 is free: the next delivery through App leaves from it.
        assertThat(delivered(deliver("\"payload\":{}")).bytes()).isEqualTo("{}".getBytes(StandardCharsets.UTF_8));
    }
}
