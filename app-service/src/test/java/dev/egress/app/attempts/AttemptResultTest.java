package dev.egress.app.attempts;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The retry rule: only attempts that certainly did not reach the target move to another Border. */
class AttemptResultTest {

    @ParameterizedTest(name = "Border {0} targetContacted={1} -> retry {2}")
    @CsvSource({
        "409, false, true",
        "429, false, true",
        "500, false, true",
        "503, false, true",
        "409, true, false",
        "503, true, false",
        "500, true, false",
        "400, false, false",
        "403, false, false",
        "404, false, false",
        "413, false, false",
        "502, false, false",
        "504, true, false",
        "401, false, false"
    })
    void retriesBorderProblemsOnlyWithoutContact(int status, boolean contacted, boolean retry) {
        AttemptResult result =
                new AttemptResult(AttemptResult.Kind.BORDER_PROBLEM, status, "x", contacted, null, null, null, 1);
        assertThat(result.retryable()).isEqualTo(retry);
    }

    @ParameterizedTest(name = "{0} -> retry {1}")
    @CsvSource({
        "NOT_REACHED, true",
        "LINK_SILENT, true",
        "BORDER_LEFT, true",
        "BREAKER_OPEN, true",
        "ATTEMPT_TIMEOUT, false",
        "BORDER_ERROR, false"
    })
    void retriesTransportFailuresOnlyBeforeSending(AttemptResult.Kind kind, boolean retry) {
        assertThat(AttemptResult.failed(kind, false, "x", 1).retryable()).isEqualTo(retry);
    }

    @Test
    void aSilentLinkIsNotSentRetryableAndNoBorderFault() {
        AttemptResult silent = CallFailures.silentLink(Duration.ofMillis(750), System.nanoTime());
        assertThat(silent.kind()).isEqualTo(AttemptResult.Kind.LINK_SILENT);
        assertThat(silent.targetContacted()).isFalse();
        assertThat(silent.retryable()).isTrue();
        assertThat(silent.borderFault()).isFalse();
        assertThat(silent.neutral()).isTrue();
        assertThat(silent.outcome()).isEqualTo("border-unreachable");
    }

    @Test
    void aMisreportedSourceIpIsANonRetryableBorderFault() {
        AttemptResult mismatch = AttemptResult.failed(AttemptResult.Kind.SOURCE_IP_MISMATCH, true, "x", 1);
        assertThat(mismatch.retryable()).isFalse();
        assertThat(mismatch.borderFault()).isTrue();
        assertThat(mismatch.neutral()).isFalse();
        assertThat(mismatch.outcome()).isEqualTo("source-ip-mismatch");
    }
}
