package dev.egress.border.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.border.InvalidRequestException;
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
}
