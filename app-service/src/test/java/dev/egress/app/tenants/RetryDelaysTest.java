package dev.egress.app.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RetryDelaysTest {

    @Test
    void theDefaultIsEightAttemptsOverAboutTwentySevenHours() {
        RetryDelays delays = RetryDelays.DEFAULT;

        assertThat(delays.attempts()).isEqualTo(8);
        assertThat(delays.before(1)).isZero();
        assertThat(delays.before(2)).isEqualTo(Duration.ofSeconds(5));
        assertThat(delays.before(8)).isEqualTo(Duration.ofHours(10));
        assertThat(delays.delays().stream().reduce(Duration.ZERO, Duration::plus))
                .isEqualTo(Duration.ofHours(27).plusMinutes(35).plusSeconds(5));
        assertThatThrownBy(() -> delays.before(9)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void holdsOneToThirtyAttempts() {
        assertThat(new RetryDelays(List.of(Duration.ZERO)).attempts()).isEqualTo(1);
        assertThat(new RetryDelays(Collections.nCopies(30, Duration.ZERO)).attempts())
                .isEqualTo(30);
        assertThatThrownBy(() -> new RetryDelays(List.of())).hasMessage("0 entries (expected: 1 to 30 attempts)");
        assertThatThrownBy(() -> new RetryDelays(Collections.nCopies(31, Duration.ZERO)))
                .hasMessage("31 entries (expected: 1 to 30 attempts)");
    }

    @Test
    void eachDelayIsFromZeroToAWeek() {
        assertThat(new RetryDelays(List.of(Duration.ZERO, Duration.ofDays(7))).before(2))
                .isEqualTo(Duration.ofDays(7));
        assertThatThrownBy(() -> new RetryDelays(
                        List.of(Duration.ZERO, Duration.ofDays(7).plusMillis(1))))
                .hasMessage("[1]: 168h0.001s (expected: 0s to 168h)");
        assertThatThrownBy(() -> new RetryDelays(List.of(Duration.ofMillis(-1))))
                .hasMessage("[0]: -0.001s (expected: 0s to 168h)");
    }

    @Test
    void copiesTheList() {
        List<Duration> list = new ArrayList<>(List.of(Duration.ZERO));
        RetryDelays delays = new RetryDelays(list);
        list.add(Duration.ofSeconds(1));

        assertThat(delays.attempts()).isEqualTo(1);
        assertThatThrownBy(() -> delays.delays().add(Duration.ZERO)).isInstanceOf(UnsupportedOperationException.class);
    }

    @ParameterizedTest
    @CsvSource({"0s, 0", "250ms, 250", "5s, 5000", "5m, 300000", "2h, 7200000", "1d, 86400000", "' 3M ', 180000"})
    void readsAWholeNumberWithAUnit(String text, long millis) {
        assertThat(RetryDelays.parse(List.of(text)).before(1)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5", "5w", "1.5s", "-5s", "s", "", "5 s", "1234567890s"})
    void refusesAnythingElseNamingTheEntry(String text) {
        assertThatThrownBy(() -> RetryDelays.parse(List.of("0s", text)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("[1]: '%s' (expected: a whole number with a unit ms, s, m, h or d)".formatted(text));
    }

    @Test
    void refusesANumberOrAMappingAndAValueThatIsNoList() {
        assertThatThrownBy(() -> RetryDelays.parse(List.of(5))).hasMessageStartingWith("[0]: '5' (expected");
        assertThatThrownBy(() -> RetryDelays.parse("5s"))
                .hasMessage("expected a list of durations such as [0s, 5s, 5m, 2h]");
        assertThatThrownBy(() -> RetryDelays.parse(null)).hasMessageStartingWith("expected a list");
    }

    @Test
    void keepsTheOrderGiven() {
        assertThat(RetryDelays.parse(List.of("1h", "0s", "5m")).delays())
                .containsExactly(Duration.ofHours(1), Duration.ZERO, Duration.ofMinutes(5));
    }
}
