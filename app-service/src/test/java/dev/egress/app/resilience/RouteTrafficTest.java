package dev.egress.app.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.BorderId;
import dev.egress.discovery.EgressIp;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RouteTrafficTest {

    private static final EgressIp IP = EgressIp.of("127.0.0.3");
    private static final BorderId A = BorderId.of("border-a");
    private static final BorderId B = BorderId.of("border-b");

    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final RouteTraffic traffic = new RouteTraffic(Duration.ofSeconds(60), now::get, meters);

    @Test
    void countsCallsInFlightUntilTheyFinish() {
        traffic.started(IP, A);
        traffic.started(IP, A);
        assertThat(traffic.stats(IP, A).inFlight()).isEqualTo(2);
        assertThat(meters.get("egress.ip.in.flight")
                        .tag("ip", "127.0.0.3")
                        .tag("border", "border-a")
                        .gauge()
                        .value())
                .isEqualTo(2.0);

        traffic.finished(IP, A, "delivered", false);
        assertThat(traffic.stats(IP, A).inFlight()).isEqualTo(1);
        assertThat(traffic.stats(IP, B)).isEqualTo(RouteTraffic.Stats.NONE);
    }

    @Test
    void errorRateCoversTheRecentWindowOnly() {
        record(A, 3, false);
        record(A, 1, true);
        assertThat(traffic.stats(IP, A).errorRate()).isEqualTo(0.25);
        assertThat(meters.get("egress.ip.attempts")
                        .tag("outcome", "failed")
                        .counter()
                        .count())
                .isEqualTo(1.0);

        now.addAndGet(Duration.ofSeconds(61).toNanos());
        assertThat(traffic.stats(IP, A).recentAttempts()).isZero();
        assertThat(traffic.stats(IP, A).errorRate()).isZero();

        record(A, 1, true);
        assertThat(traffic.stats(IP, A).errorRate()).isEqualTo(1.0);
    }

    @Test
    void forgetsRoutesAndMetersOfBordersThatLeft() {
        record(A, 1, false);
        record(B, 1, false);

        traffic.retain(List.of(B));

        assertThat(traffic.stats(IP, A)).isEqualTo(RouteTraffic.Stats.NONE);
        assertThat(meters.find("egress.ip.attempts").tag("border", "border-a").counter())
                .isNull();
        assertThat(meters.find("egress.ip.in.flight").tag("border", "border-a").gauge())
                .isNull();
        assertThat(meters.find("egress.ip.attempts").tag("border", "border-b").counter())
                .isNotNull();
    }

    private void record(BorderId border, int times, boolean failed) {
        for (int i = 0; i < times; i++) {
            traffic.started(IP, border);
            traffic.finished(IP, border, failed ? "failed" : "delivered", failed);
        }
    }
}
