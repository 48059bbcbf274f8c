package dev.egress.app.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.BorderId;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PassiveHealthTest {

    private final AtomicLong now = new AtomicLong();
    private final PassiveHealth health =
            new PassiveHealth(3, Duration.ofSeconds(30), now::get, new SimpleMeterRegistry());
    private final BorderId a = BorderId.of("a");

    @Test
    void ejectsAfterConsecutiveFailuresOnly() {
        health.onFailure(a);
        health.onFailure(a);
        health.onSuccess(a);
        health.onFailure(a);
        health.onFailure(a);
        assertThat(health.isHealthy(a)).isTrue();
        health.onFailure(a);
        assertThat(health.isHealthy(a)).isFalse();
    }

    @Test
    void returnsOnlyAfterTheRecoveryHoldWithoutFailures() {
        for (int i = 0; i < 3; i++) {
            health.onFailure(a);
        }
        now.addAndGet(Duration.ofSeconds(20).toNanos());
        health.onSuccess(a); // a panic-mode success does not shorten the hold
        assertThat(health.isHealthy(a)).isFalse();
        health.onFailure(a); // a new failure restarts it
        now.addAndGet(Duration.ofSeconds(20).toNanos());
        assertThat(health.isHealthy(a)).isFalse();
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(health.isHealthy(a)).isTrue();
        health.onFailure(a);
        assertThat(health.isHealthy(a)).as("streak was reset on return").isTrue();
    }

    @Test
    void publishesEjectionsAndReturns() {
        List<PassiveHealth.StateChange> changes = new ArrayList<>();
        health.onStateChange(changes::add);
        for (int i = 0; i < 4; i++) {
            health.onFailure(a);
        }
        now.addAndGet(Duration.ofSeconds(31).toNanos());
        health.isHealthy(a);
        assertThat(changes).extracting(PassiveHealth.StateChange::ejected).containsExactly(true, false);
    }

    @Test
    void forgetsBordersThatLeft() {
        for (int i = 0; i < 3; i++) {
            health.onFailure(a);
        }
        health.retain(List.of(BorderId.of("b")));
        assertThat(health.isHealthy(a)).isTrue();
    }
}
