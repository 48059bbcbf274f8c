package dev.egress.app.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RetryAfterTest {

    private static final Instant NOW = Instant.parse("1994-11-06T08:49:00Z");

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "120                           | 120",
                "' 0 '                         | 0",
                "007                           | 7",
                "Sun, 06 Nov 1994 08:49:37 GMT | 37",
                "Sunday, 06-Nov-94 08:49:37 GMT | 37",
                "Sun Nov  6 08:49:37 1994      | 37",
                "Sun, 06 Nov 1994 08:00:00 GMT | 0"
            })
    void readsDelaySecondsAndTheThreeDateForms(String value, long seconds) {
        assertThat(RetryAfter.parse(value, NOW)).contains(Duration.ofSeconds(seconds));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-5", "1.5", "soon", "5 s", "Sun, 06 Nov 1994 08:49:37"})
    void ignoresWhatItCannotRead(String value) {
        assertThat(RetryAfter.parse(value, NOW)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999999", "00000000000000000000000000000000060"})
    void aHugeNumberIsALongWaitNotAnOverflow(String value) {
        assertThat(RetryAfter.parse(value, NOW).orElseThrow()).isGreaterThanOrEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void noValueIsNoWait() {
        assertThat(RetryAfter.parse(null, NOW)).isEmpty();
    }
}
