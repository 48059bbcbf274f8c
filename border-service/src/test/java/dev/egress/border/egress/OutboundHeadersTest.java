package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.border.InvalidRequestException;
import dev.egress.discovery.web.forward.HeaderFields;
import io.netty.handler.codec.http.HttpHeaderValidationUtil;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutboundHeadersTest {

    @Test
    void keepsEndToEndHeadersAndDropsHopByHopOnes() {
        assertThat(OutboundHeaders.filter(Map.of(
                        "Content-Type",
                        "application/json",
                        "X-Signature",
                        "s",
                        "Authorization",
                        "Bearer target-token",
                        "Proxy-Connection",
                        "keep-alive",
                        "Via",
                        "1.1 app",
                        "Forwarded",
                        "for=10.0.0.1",
                        "Expect",
                        "100-continue")))
                .containsOnlyKeys("Content-Type", "X-Signature", "Authorization");
    }

    @Test
    void dropsHeadersNamedInConnection() {
        assertThat(OutboundHeaders.filter(Map.of("Connection", "X-Secret-Hop", "X-Secret-Hop", "1", "X-Kept", "2")))
                .containsOnlyKeys("X-Kept");
    }

    @Test
    void refusesHeaderInjection() {
        assertThatThrownBy(() -> OutboundHeaders.filter(Map.of("X-A", "v\r\nHost: evil")))
                .isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> OutboundHeaders.filter(Map.of("Bad Name", "v")))
                .isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void refusesControlCharactersNamingTheHeader() {
        assertThatThrownBy(() -> OutboundHeaders.filter(Map.of("X-A", "a\u0001b")))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith("headers.X-A: U+0001 at index 1");
        assertThatThrownBy(() -> OutboundHeaders.filter(Map.of("X-A", "a\u007fb")))
                .hasMessageStartingWith("headers.X-A: U+007F at index 1");
    }

    /**
     * The shared rule against Netty's own check, for every character up to U+017F as the first character and
     * inside a value: they agree everywhere but above U+00FF, which Netty accepts and then sends as '?'.
     */
    @Test
    void refusesExactlyWhatNettysHeaderValidationRefusesAndWhatItWouldMangle() {
        for (char c = 0; c < 0x180; c++) {
            for (String value : new String[] {c + "x", "x" + c + "x"}) {
                boolean netty = HttpHeaderValidationUtil.validateValidHeaderValue(value) < 0;
                boolean ours = HeaderFields.invalidValueIndex(value) < 0;
                assertThat(ours)
                        .as("U+%04X in %s", (int) c, value.length() == 2 ? "first place" : "the middle")
                        .isEqualTo(netty && c <= 0xff);
            }
            String name = "X" + c;
            assertThat(HeaderFields.validName(name))
                    .as("U+%04X in a name", (int) c)
                    .isEqualTo(HttpHeaderValidationUtil.validateToken(name) < 0);
        }
        assertThat(HeaderFields.validName("")).isFalse();
        assertThat(HeaderFields.invalidValueIndex("")).isEqualTo(-1);
    }
}
