package dev.egress.discovery.registry.ydb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SteadyClockTest {

    private final Instant start = Instant.parse("2026-12-06T04:00:00Z");
    private final MutableClock wall = new MutableClock(start);
    private final AtomicLong nanos = new AtomicLong();
    private final SteadyClock clock = new SteadyClock(wall, nanos::get);

    @Test
    void followsTheWallClockWhileItRunsForward() {
        assertThat(clock.instant()).isEqualTo(start);
        wall.advance(Duration.ofSeconds(3));
        nanos.addAndGet(Duration.ofSeconds(3).toNanos());
        assertThat(clock.instant()).isEqualTo(start.plusSeconds(3));
    }

    @Test
    void goesOnFromTheLastStampAtTheMonotonicRateAfterTheWallClockStepsBack() {
        clock.instant();
        wall.advance(Duration.ofHours(-1));
        nanos.addAndGet(Duration.ofSeconds(2).toNanos());

        assertThat(clock.instant()).isEqualTo(start.plusSeconds(2));

        // The wall clock catches up and takes over again.
        wall.set(start.plusSeconds(10));
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(clock.instant()).isEqualTo(start.plusSeconds(10));
    }
}
