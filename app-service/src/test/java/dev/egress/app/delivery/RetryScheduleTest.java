package dev.egress.app.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.app.tenants.RetryDelays;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {

    /** A random source that always draws the same fraction. */
    private static RandomGenerator drawing(double fraction) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException();
            }

            @Override
            public double nextDouble() {
                return fraction;
            }
        };
    }

    private static final RandomGenerator MIDDLE = drawing(0.5);

    @Test
    void theDefaultIsEightAttemptsFromImmediatelyToTenHours() {
        RetrySchedule schedule = RetrySchedule.DEFAULT;

        assertThat(List.of(1, 2, 3, 4, 5, 6, 7, 8).stream()
                        .map(n -> schedule.delayBefore(n, null, MIDDLE).orElseThrow())
                        .toList())
                .containsExactly(
                        Duration.ZERO,
                        Duration.ofSeconds(5),
                        Duration.ofMinutes(5),
                        Duration.ofMinutes(30),
                        Duration.ofHours(2),
                        Duration.ofHours(5),
                        Duration.ofHours(10),
                        Duration.ofHours(10));
        assertThat(schedule.delayBefore(9, null, MIDDLE)).isEmpty();
    }

    @Test
    void jitterSpreadsADelayByUpToTwentyPercentEitherWay() {
        RetrySchedule schedule = RetrySchedule.DEFAULT;

        assertThat(schedule.delayBefore(4, null, drawing(0.0))).contains(Duration.ofMinutes(24));
        assertThat(schedule.delayBefore(4, null, drawing(0.75))).contains(Duration.ofMinutes(33));
        assertThat(schedule.delayBefore(4, null, drawing(Math.nextDown(1.0))).orElseThrow())
                .isLessThanOrEqualTo(Duration.ofMinutes(36))
                .isGreaterThan(Duration.ofMinutes(35));
        assertThat(schedule.delayBefore(1, null, drawing(0.0))).contains(Duration.ZERO);
    }

    @Test
    void jitteredDelaysStayWithinTheirBandAndSpreadOverIt() {
        SplittableRandom random = new SplittableRandom(42);
        List<Duration> drawn = IntStream.range(0, 2_000)
                .mapToObj(
                        i -> RetrySchedule.DEFAULT.delayBefore(2, null, random).orElseThrow())
                .toList();

        assertThat(drawn).allSatisfy(d -> assertThat(d).isBetween(Duration.ofMillis(4_000), Duration.ofMillis(6_000)));
        assertThat(drawn).anyMatch(d -> d.toMillis() < 4_200).anyMatch(d -> d.toMillis() > 5_800);
    }

    @Test
    void aRetryAfterReplacesTheDelayWithinTheFloorAndCeiling() {
        RetrySchedule schedule = RetrySchedule.DEFAULT;

        assertThat(schedule.delayBefore(3, Duration.ofSeconds(90), MIDDLE)).contains(Duration.ofSeconds(90));
        assertThat(schedule.delayBefore(3, Duration.ZERO, MIDDLE)).contains(Duration.ofSeconds(5));
        assertThat(schedule.delayBefore(3, Duration.ofDays(3), MIDDLE)).contains(Duration.ofHours(10));
        // It never adds an attempt the schedule does not have.
        assertThat(schedule.delayBefore(9, Duration.ofSeconds(90), MIDDLE)).isEmpty();
    }

    @Test
    void dueAtIsTheDelayAfterThePreviousAttempt() {
        Instant ended = Instant.parse("2026-12-06T00:00:00Z");

        assertThat(RetrySchedule.DEFAULT.dueAt(2, ended, null, MIDDLE)).contains(ended.plusSeconds(5));
        assertThat(RetrySchedule.DEFAULT.dueAt(9, ended, null, MIDDLE)).isEqualTo(Optional.empty());
    }

    @Test
    void refusesAttemptZero() {
        assertThatThrownBy(() -> RetrySchedule.DEFAULT.delayBefore(0, null, MIDDLE))
                .hasMessage("attempt: 0 (expected: >= 1)");
    }

    @Test
    void refusesBoundsThatBreakTheRules() {
        RetryDelays delays = RetryDelays.DEFAULT;
        Duration floor = Duration.ofSeconds(5);

        assertThatThrownBy(() -> new RetrySchedule(delays, 0.6, floor, Duration.ofHours(1)))
                .hasMessageContaining("egress.delivery.retry.jitter: 0.6 (expected: 0 to 0.5)");
        assertThatThrownBy(() -> new RetrySchedule(delays, -0.1, floor, Duration.ofHours(1)))
                .hasMessageContaining("jitter");
        assertThatThrownBy(() -> new RetrySchedule(delays, Double.NaN, floor, Duration.ofHours(1)))
                .hasMessageContaining("jitter");
        assertThatThrownBy(() -> new RetrySchedule(delays, 0.2, Duration.ofSeconds(-1), Duration.ofHours(1)))
                .hasMessageContaining("retry-after-floor");
        assertThatThrownBy(() -> new RetrySchedule(delays, 0.2, floor, Duration.ofSeconds(4)))
                .hasMessageContaining("retry-after-ceiling: PT4S (expected: from the floor PT5S to PT168H)");
        assertThatThrownBy(() -> new RetrySchedule(delays, 0.2, floor, Duration.ofDays(8)))
                .hasMessageContaining("retry-after-ceiling");
    }
}
