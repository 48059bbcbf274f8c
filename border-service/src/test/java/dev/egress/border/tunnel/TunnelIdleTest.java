package dev.egress.border.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import org.junit.jupiter.api.Test;

/** A tunnel without a byte either way is closed by the Border after {@code egress.tunnel.idle-timeout}. */
@LocalBorderTest({
    "egress.border.id=border-idle",
    "egress.border.ips=127.0.0.5",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS,
    "egress.tunnel.idle-timeout=1s"
})
class TunnelIdleTest extends NeverReadingTunnel {

    @Test
    void closesATunnelWithoutAByteEitherWay() throws Exception {
        open(false);

        assertThat(closedAfterWriting()).isZero();
    }
}
