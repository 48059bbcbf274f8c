package dev.egress.discovery.web.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class ForwardFrameTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ForwardRequest request(byte[] body) {
        return new ForwardRequest(
                "d-1", "127.0.0.2", "https://hooks.example.com/in", "POST", Map.of("X-Sig", "v1=abc"), body);
    }

    private static ByteBuffer frame(byte[] head, byte[] body) {
        return ByteBuffer.allocate(head.length + body.length)
                .put(head)
                .put(body)
                .flip();
    }

    @Test
    void aRequestsBytesFollowItsHeadUntouched() {
        byte[] body = {0, (byte) 0xff, '"', '\\', '\n', (byte) 0xc3};
        byte[] head = ForwardFrame.requestHead(JSON, request(body));

        assertThat(new String(head, 4, head.length - 4, StandardCharsets.UTF_8))
                .as("the head carries no body, in base64 or otherwise")
                .doesNotContain("bodyBase64")
                .contains("\"body\":true");
        ForwardRequest read = ForwardFrame.readRequest(JSON, frame(head, body));

        assertThat(read.body()).isEqualTo(body);
        assertThat(read.deliveryId()).isEqualTo("d-1");
        assertThat(read.sourceIp()).isEqualTo("127.0.0.2");
        assertThat(read.url()).isEqualTo("https://hooks.example.com/in");
        assertThat(read.method()).isEqualTo("POST");
        assertThat(read.headers()).containsExactly(Map.entry("X-Sig", "v1=abc"));
    }

    @Test
    void noBodyAndAnEmptyBodyStayApart() {
        assertThat(ForwardFrame.readRequest(JSON, frame(ForwardFrame.requestHead(JSON, request(null)), new byte[0]))
                        .body())
                .isNull();
        assertThat(ForwardFrame.readRequest(
                                JSON, frame(ForwardFrame.requestHead(JSON, request(new byte[0])), new byte[0]))
                        .body())
                .isEmpty();
    }

    @Test
    void bodyBytesAfterAHeadWithoutABodyAreRefused() {
        ByteBuffer frame = frame(ForwardFrame.requestHead(JSON, request(null)), new byte[] {1, 2});

        assertThatThrownBy(() -> ForwardFrame.readRequest(JSON, frame))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 body bytes after a head without a body");
    }

    @Test
    void aCutOrOversizedOrUnreadableHeadIsRefusedWithWhatIsWrong() {
        assertThatThrownBy(() -> ForwardFrame.readRequest(JSON, ByteBuffer.wrap(new byte[] {0, 0, 1})))
                .hasMessageContaining("a frame of 3 bytes");
        assertThatThrownBy(() -> ForwardFrame.readRequest(
                        JSON, ByteBuffer.allocate(6).putInt(10).flip()))
                .hasMessageContaining("cut short");
        assertThatThrownBy(() -> ForwardFrame.readRequest(
                        JSON,
                        ByteBuffer.allocate(4).putInt(ForwardFrame.MAX_HEAD + 1).flip()))
                .hasMessageContaining("expected: 0..");
        assertThatThrownBy(() -> ForwardFrame.readRequest(
                        JSON, ByteBuffer.allocate(4).putInt(-1).flip()))
                .hasMessageContaining("expected: 0..");
        assertThatThrownBy(() -> ForwardFrame.readRequest(
                        JSON, frame(ByteBuffer.allocate(4).putInt(2).array(), "[]".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unreadable head");
        assertThatThrownBy(() -> ForwardFrame.readRequest(
                        JSON, frame(ByteBuffer.allocate(4).putInt(4).array(), "null".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNewerAppsExtraHeadFieldsAreIgnored() {
        byte[] head =
                "{\"deliveryId\":\"d\",\"sourceIp\":\"127.0.0.2\",\"url\":\"http://x/\",\"method\":\"GET\",\"body\":false,\"later\":1}"
                        .getBytes(StandardCharsets.UTF_8);
        ByteBuffer frame = ByteBuffer.allocate(4 + head.length)
                .putInt(head.length)
                .put(head)
                .flip();

        assertThat(ForwardFrame.readRequest(JSON, frame).deliveryId()).isEqualTo("d");
    }

    @Test
    void anAnswersBodyIsTheBytesAfterItsHeadReadAsUtf8() {
        ForwardResponse answer =
                new ForwardResponse("d-1", "127.0.0.2", "border-a", 202, Map.of("A", "b"), "ignored", true, 12);
        byte[] head = ForwardFrame.responseHead(JSON, answer);
        assertThat(new String(head, StandardCharsets.UTF_8)).doesNotContain("ignored");
        byte[] text = "caf\u00e9 \"q\"".getBytes(StandardCharsets.UTF_8);
        // A multi-byte character cut by the Border's cap reads as U+FFFD, as the JSON form's text did.
        byte[] cut = {'a', (byte) 0xc3};

        assertThat(ForwardFrame.readResponse(JSON, frame(head, text).array()))
                .isEqualTo(new ForwardResponse(
                        "d-1", "127.0.0.2", "border-a", 202, Map.of("A", "b"), "caf\u00e9 \"q\"", true, 12));
        assertThat(ForwardFrame.readResponse(JSON, frame(head, cut).array()).body())
                .isEqualTo("a\ufffd");
        assertThat(ForwardFrame.readResponse(JSON, head).body()).isEmpty();
    }
}
