package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.BorderException;
import dev.egress.border.ssrf.DenialReason;
import dev.egress.border.ssrf.TargetDeniedException;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.timeout.ReadTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.util.stream.Stream;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FailureClassificationTest {

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(new ConnectException("Connection refused"), 502, "target-unreachable", false),
                Arguments.of(new ConnectTimeoutException("connection timed out"), 504, "target-timeout", false),
                Arguments.of(ReadTimeoutException.INSTANCE, 504, "target-timeout", true),
                Arguments.of(new SSLHandshakeException("bad certificate"), 502, "target-unreachable", false),
                Arguments.of(new IOException("Connection reset by peer"), 502, "target-unreachable", true),
                Arguments.of(new IllegalStateException("surprise"), 502, "target-unreachable", true),
                Arguments.of(
                        new TooLongHttpHeaderException("HTTP header is larger than 8192 bytes."),
                        502,
                        "target-protocol-error",
                        true),
                Arguments.of(
                        new TooLongHttpLineException("An HTTP line is larger than 4096 bytes."),
                        502,
                        "target-protocol-error",
                        true),
                Arguments.of(new DecoderException("broken framing"), 502, "target-protocol-error", true),
                // A plain IllegalArgumentException is a protocol error only when the HTTP decoder raised it.
                Arguments.of(new IllegalArgumentException("not from a decoder"), 502, "target-unreachable", true),
                Arguments.of(
                        new RuntimeException(
                                "wrapped", new TargetDeniedException(DenialReason.DENIED_RANGE, "10.0.0.1")),
                        403,
                        "target-denied",
                        false));
    }

    @ParameterizedTest(name = "{0} -> {1} {2}, targetContacted={3}")
    @MethodSource("failures")
    void saysWhetherTheTargetMayHaveSeenTheRequest(Throwable failure, int status, String slug, boolean contacted) {
        BorderException mapped = EgressService.classify(failure);
        assertThat(mapped.status().value()).isEqualTo(status);
        assertThat(mapped.slug()).isEqualTo(slug);
        assertThat(mapped.targetContacted()).isEqualTo(contacted);
    }

    static Stream<Arguments> reasons() {
        return Stream.of(
                Arguments.of(
                        new ConnectException("finishConnect(..) failed with error(-111): Connection refused"),
                        "connection-refused",
                        "the target refused the connection"),
                Arguments.of(
                        new ConnectTimeoutException("connection timed out: /192.0.2.1:443"),
                        "connection-timeout",
                        "the connection to the target timed out"),
                Arguments.of(
                        new SSLHandshakeException("PKIX path building failed"),
                        "tls-handshake-failed",
                        "TLS with the target failed"),
                Arguments.of(ReadTimeoutException.INSTANCE, "response-timeout", "the target did not answer in time"),
                Arguments.of(
                        new IOException("Connection reset by peer"),
                        "connection-broken",
                        "the connection to the target broke"),
                Arguments.of(
                        new DecoderException("broken framing"),
                        "malformed-response",
                        "the target's answer is not valid HTTP"));
    }

    @ParameterizedTest(name = "{0} -> reason {1}")
    @MethodSource("reasons")
    void namesTheReasonInAUsersWordsAndKeepsTheFrameworksTextApart(Throwable failure, String reason, String wording) {
        BorderException mapped = EgressService.classify(failure);

        assertThat(mapped.properties()).containsEntry("reason", reason);
        assertThat(mapped.getMessage())
                .startsWith(wording)
                .doesNotContain("finishConnect")
                .doesNotContain("Exception")
                .doesNotContain("error(-111)");
        if (!reason.endsWith("-timeout")) {
            // Timeouts say what timed out with the bound; the others keep the framework's text for developers.
            assertThat((String) mapped.properties().get("cause"))
                    .contains(failure.getClass().getSimpleName());
        }
    }
}
