package dev.egress.border.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import org.junit.jupiter.api.Test;

/** A tunnel open for {@code egress.tunnel.max-lifetime} is closed by the Border, however busy or quiet. */
@LocalBorderTest({
    "egress.border.id=border-lifetime",
    "egress.border.ips=127.0.0.5",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS,
    "egress.tunnel.max-lifetime=1s"
})
class TunnelLifetimeTest extends NeverReadingTunnel {

    @Test
    void closesATunnelAtItsMaximumLifetime() throws Exception {
        open(false);

        assertThat(closedAfterWriting()).isZero();
    }
}
