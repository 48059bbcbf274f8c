package dev.egress.border.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import org.junit.jupiter.api.Test;

/**
 * A tunnel whose App side takes nothing while its target streams as fast as it can: the Border stops reading the
 * target (back pressure, not buffering) and closes the tunnel after {@code egress.tunnel.stall-timeout}.
 */
@LocalBorderTest({
    "egress.border.id=border-stall",
    "egress.border.ips=127.0.0.5",
    BorderTestProperties.LOCAL,
    BorderTestProperties.LOOPBACK_TARGETS,
    "egress.tunnel.stall-timeout=2s"
})
class TunnelStallTest extends NeverReadingTunnel {

    @Test
    void stopsReadingAFastTargetAndClosesTheTunnelWhenAppTakesNothing() throws Exception {
        open(true);

        // What the target wrote before the Border closed it: a stream window and socket buffers, not the hundreds
        // of megabytes a local target sends in two seconds into a Border that keeps reading.
        assertThat(closedAfterWriting()).isLessThan(32L * 1024 * 1024);
    }
}
