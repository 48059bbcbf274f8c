package dev.egress.discovery.web.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ForwardDeadlineTest {

    @Test
    void readsEpochMillisAndCountsTheTimeLeft() {
        ForwardDeadline deadline = ForwardDeadline.parse(" 1700000001000 ");

        assertThat(deadline.epochMillis()).isEqualTo(1_700_000_001_000L);
        assertThat(deadline.headerValue()).isEqualTo("1700000001000");
        assertThat(deadline.millisLeft(Instant.ofEpochMilli(1_700_000_000_250L)))
                .isEqualTo(750);
        assertThat(deadline.millisLeft(Instant.ofEpochMilli(1_700_000_001_000L)))
                .isZero();
        assertThat(deadline.millisLeft(Instant.ofEpochMilli(1_700_000_001_001L)))
                .isEqualTo(-1);
    }

    @Test
    void anAbsentHeaderIsNoDeadline() {
        assertThat(ForwardDeadline.parse(null)).isNull();
    }

    @Test
    void refusesTextAndNegativeInstantsNamingTheHeader() {
        assertThatThrownBy(() -> ForwardDeadline.parse("soon"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Egress-Deadline")
                .hasMessageContaining("epoch milliseconds");
        assertThatThrownBy(() -> ForwardDeadline.parse("-1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: >= 0");
        assertThat(new ForwardDeadline(0).epochMillis()).isZero();
    }
}
