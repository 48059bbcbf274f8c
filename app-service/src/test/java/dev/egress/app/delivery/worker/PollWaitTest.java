package dev.egress.app.delivery.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.app.delivery.DurableProperties;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The poller's wait: the interval while there is work, doubling up to four intervals while there is none. */
class PollWaitTest {

    private final DeliveryWorkers workers = new DeliveryWorkers(
            null,
            null,
            null,
            null,
            new DurableProperties(
                    "app-test", Duration.ofMinutes(2), Duration.ofSeconds(30), Duration.ofMillis(500), 256, 16),
            Clock.systemUTC());

    @Test
    void anIdlePollerSlowsDownToFourIntervals() {
        Duration wait = Duration.ofMillis(500);
        wait = workers.nextWait(wait, 0);
        assertThat(wait).isEqualTo(Duration.ofSeconds(1));
        wait = workers.nextWait(wait, 0);
        assertThat(wait).isEqualTo(Duration.ofSeconds(2));
        wait = workers.nextWait(wait, 0);
        assertThat(wait).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aPollThatFindsWorkPollsAgainAfterOneInterval() {
        assertThat(workers.nextWait(Duration.ofSeconds(2), 3)).isEqualTo(Duration.ofMillis(500));
    }
}
