package dev.egress.app.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RouteTrafficTest {

    private static final EgressIp IP = EgressIp.of("127.0.0.3");
    private static final BorderId A = BorderId.of("border-a");
    private static final BorderId B = BorderId.of("border-b");

    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final RouteTraffic traffic = new RouteTraffic(Duration.ofSeconds(60), now::get, meters);
    private final BorderTraffic a = traffic.track(A);
    private final BorderTraffic b = traffic.track(B);

    @Test
    void countsCallsInFlightUntilTheyFinish() {
        a.started(IP);
        a.started(IP);
        assertThat(a.stats(IP).inFlight()).isEqualTo(2);
        assertThat(meters.get("egress.ip.in.flight")
                        .tag("ip", "127.0.0.3")
                        .tag("border", "border-a")
                        .gauge()
                        .value())
                .isEqualTo(2.0);

        a.finished(IP, "delivered", false);
        assertThat(a.stats(IP).inFlight()).isEqualTo(1);
        assertThat(b.stats(IP)).isEqualTo(RouteTraffic.Stats.NONE);
    }

    @Test
    void countsOpenTunnelsApartFromTheCallsInFlightTheyAreAmong() {
        a.started(IP);
        a.tunnelOpened(IP);
        a.started(IP);
        assertThat(a.stats(IP).inFlight()).isEqualTo(2);
        assertThat(a.stats(IP).openTunnels()).isEqualTo(1);

        a.tunnelClosed(IP);
        a.finished(IP, "delivered", false);
        assertThat(a.stats(IP).openTunnels()).isZero();
        assertThat(a.stats(IP).inFlight()).isEqualTo(1);
    }

    @Test
    void errorRateCoversTheRecentWindowOnly() {
        record(a, 3, false);
        record(a, 1, true);
        assertThat(a.stats(IP).errorRate()).isEqualTo(0.25);
        assertThat(meters.get("egress.ip.attempts")
                        .tag("outcome", "failed")
                        .counter()
                        .count())
                .isEqualTo(1.0);

        now.addAndGet(Duration.ofSeconds(61).toNanos());
        assertThat(a.stats(IP).recentAttempts()).isZero();
        assertThat(a.stats(IP).errorRate()).isZero();

        record(a, 1, true);
        assertThat(a.stats(IP).errorRate()).isEqualTo(1.0);
    }

    @Test
    void forgetsRoutesAndMetersOfBordersThatLeft() {
        record(a, 1, false);
        record(b, 1, false);

        a.close();

        assertThat(a.stats(IP)).isEqualTo(RouteTraffic.Stats.NONE);
        assertThat(meters.find("egress.ip.attempts").tag("border", "border-a").counter())
                .isNull();
        assertThat(meters.find("egress.ip.in.flight").tag("border", "border-a").gauge())
                .isNull();
        assertThat(meters.find("egress.ip.attempts").tag("border", "border-b").counter())
                .isNotNull();

        // A call that was in flight when its Border left ends later: its meters do not come back.
        record(a, 1, true);
        assertThat(meters.find("egress.ip.attempts").tag("border", "border-a").counter())
                .isNull();
        assertThat(meters.find("egress.ip.in.flight").tag("border", "border-a").gauge())
                .isNull();
    }

    private static void record(BorderTraffic border, int times, boolean failed) {
        for (int i = 0; i < times; i++) {
            border.started(IP);
            border.finished(IP, failed ? "failed" : "delivered", failed);
        }
    }
}
