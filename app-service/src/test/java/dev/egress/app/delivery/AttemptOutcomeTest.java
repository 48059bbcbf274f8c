package dev.egress.app.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.delivery.AttemptOutcome.Answered;
import dev.egress.app.delivery.AttemptOutcome.Failed;
import dev.egress.app.delivery.AttemptOutcome.Verdict;
import dev.egress.discovery.web.problem.ProblemType;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class AttemptOutcomeTest {

    private static final Instant NOW = Instant.parse("2026-12-06T00:00:00Z");
    /** The middle of the jitter band: no spread. */
    private static final RandomGenerator MIDDLE = new RandomGenerator() {
        @Override
        public long nextLong() {
            throw new UnsupportedOperationException();
        }

        @Override
        public double nextDouble() {
            return 0.5;
        }
    };

    @ParameterizedTest
    @CsvSource({
        "200, DELIVERED",
        "201, DELIVERED",
        "204, DELIVERED",
        "299, DELIVERED",
        "410, STOP",
        "100, RETRY_LATER",
        "199, RETRY_LATER",
        "300, RETRY_LATER",
        "301, RETRY_LATER",
        "400, RETRY_LATER",
        "404, RETRY_LATER",
        "409, RETRY_LATER",
        "429, RETRY_LATER",
        "500, RETRY_LATER",
        "503, RETRY_LATER"
    })
    void aTargetsStatusIsDeliveredOnlyFor2xxAndStopsOnlyFor410(int status, Verdict verdict) {
        assertThat(new Answered(status, null).verdict()).isEqualTo(verdict);
    }

    @Test
    void aRefusedTargetStopsAtOnce() {
        assertThat(new Failed(ProblemType.TARGET_DENIED).verdict()).isEqualTo(Verdict.STOP);
    }

    @ParameterizedTest
    @EnumSource(value = ProblemType.class, names = "TARGET_DENIED", mode = EnumSource.Mode.EXCLUDE)
    void everyOtherProblemIsRetriedLaterNoEgressIncluded(ProblemType type) {
        assertThat(new Failed(type).verdict()).isEqualTo(Verdict.RETRY_LATER);
        assertThat(EnumSet.of(ProblemType.NO_EGRESS_AVAILABLE, ProblemType.TARGET_TIMEOUT, ProblemType.BORDER_ERROR))
                .allMatch(t -> new Failed(t).verdict() == Verdict.RETRY_LATER);
    }

    @Test
    void readsRetryAfterInAnyCase() {
        assertThat(Answered.of(503, Map.of("retry-after", "30")).retryAfter()).isEqualTo("30");
        assertThat(Answered.of(503, Map.of("Retry-After", "30")).retryAfter()).isEqualTo("30");
        assertThat(Answered.of(503, Map.of("Content-Type", "text/plain")).retryAfter())
                .isNull();
    }

    @Test
    void nextAttemptFollowsTheScheduleAndTheTargetsRetryAfter() {
        RetrySchedule schedule = RetrySchedule.DEFAULT;

        assertThat(NextAttempt.after(new Answered(204, null), 1, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.Delivered());
        assertThat(NextAttempt.after(new Answered(500, null), 1, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.At(2, NOW.plusSeconds(5)));
        assertThat(NextAttempt.after(new Answered(429, "120"), 1, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.At(2, NOW.plusSeconds(120)));
        assertThat(NextAttempt.after(new Answered(503, "0"), 2, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.At(3, NOW.plusSeconds(5)));
        assertThat(NextAttempt.after(new Answered(503, "garbage"), 2, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.At(3, NOW.plus(Duration.ofMinutes(5))));
        assertThat(NextAttempt.after(new Failed(ProblemType.NO_EGRESS_AVAILABLE), 3, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.At(4, NOW.plus(Duration.ofMinutes(30))));
    }

    @Test
    void nextAttemptGivesUpOnAStopOrWhenTheScheduleRunsOut() {
        RetrySchedule schedule = RetrySchedule.DEFAULT;

        assertThat(NextAttempt.after(new Answered(410, "5"), 1, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.Dead(false));
        assertThat(NextAttempt.after(new Failed(ProblemType.TARGET_DENIED), 1, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.Dead(false));
        assertThat(NextAttempt.after(new Answered(500, null), 7, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.At(8, NOW.plus(Duration.ofHours(10))));
        assertThat(NextAttempt.after(new Answered(500, null), 8, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.Dead(true));
        assertThat(NextAttempt.after(new Answered(429, "60"), 8, NOW, schedule, MIDDLE))
                .isEqualTo(new NextAttempt.Dead(true));
    }
}
