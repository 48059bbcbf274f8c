package dev.egress.app.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurablePropertiesTest {

    @Test
    void anAttemptMustEndWithinItsLease() {
        assertThatThrownBy(() -> new DurableProperties(
                        "w", Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(500), 1, 1))
                .hasMessageContaining("egress.delivery.attempt-timeout");
        assertThatThrownBy(() ->
                        new DurableProperties("w", Duration.ofMinutes(2), Duration.ofSeconds(30), Duration.ZERO, 1, 1))
                .hasMessageContaining("egress.delivery.poll-interval");
        assertThatThrownBy(() -> new DurableProperties(
                        "w", Duration.ofMinutes(2), Duration.ofSeconds(30), Duration.ofMillis(500), 0, 1))
                .hasMessageContaining("egress.delivery.max-in-flight");
    }

    @Test
    void theWorkerIdDefaultsToHostAndPid() {
        DurableProperties p =
                new DurableProperties("", Duration.ofMinutes(2), Duration.ofSeconds(30), Duration.ofMillis(500), 1, 1);

        assertThat(p.workerId()).endsWith("-" + ProcessHandle.current().pid());
    }
}
