package dev.egress.app.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.registry.BorderId;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PassiveHealthTest {

    private final AtomicLong now = new AtomicLong();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final PassiveHealth health = new PassiveHealth(3, Duration.ofSeconds(30), now::get, meters);
    private final Ejection a = health.track(BorderId.of("a"));

    @Test
    void ejectsAfterConsecutiveFailuresOnly() {
        a.onFailure();
        a.onFailure();
        a.onSuccess();
        a.onFailure();
        a.onFailure();
        assertThat(a.isHealthy()).isTrue();
        a.onFailure();
        assertThat(a.isHealthy()).isFalse();
    }

    @Test
    void returnsOnlyAfterTheRecoveryHoldWithoutFailures() {
        for (int i = 0; i < 3; i++) {
            a.onFailure();
        }
        now.addAndGet(Duration.ofSeconds(20).toNanos());
        a.onSuccess(); // a panic-mode success does not shorten the hold
        assertThat(a.isHealthy()).isFalse();
        a.onFailure(); // a new failure restarts it
        now.addAndGet(Duration.ofSeconds(20).toNanos());
        assertThat(a.isHealthy()).isFalse();
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(a.isHealthy()).isTrue();
        a.onFailure();
        assertThat(a.isHealthy()).as("streak was reset on return").isTrue();
    }

    @Test
    void publishesEjectionsAndReturns() {
        List<PassiveHealth.StateChange> changes = new ArrayList<>();
        health.onStateChange(changes::add);
        for (int i = 0; i < 4; i++) {
            a.onFailure();
        }
        now.addAndGet(Duration.ofSeconds(31).toNanos());
        a.isHealthy();
        assertThat(changes).extracting(PassiveHealth.StateChange::ejected).containsExactly(true, false);
    }

    @Test
    void forgetsBordersThatLeft() {
        for (int i = 0; i < 3; i++) {
            a.onFailure();
        }
        assertThat(ejectedGauge()).isEqualTo(1.0);
        a.forget();
        assertThat(a.isHealthy()).isTrue();
        assertThat(ejectedGauge())
                .as("a Border that left is not counted as ejected")
                .isZero();
        for (int i = 0; i < 3; i++) {
            a.onFailure();
        }
        assertThat(ejectedGauge()).as("nor after a late failure").isZero();
        assertThat(health.track(BorderId.of("a")).isHealthy())
                .as("a Border that comes back starts healthy")
                .isTrue();
    }

    @Test
    void countsEjectedBordersUntilTheyReturn() {
        Ejection b = health.track(BorderId.of("b"));
        for (int i = 0; i < 3; i++) {
            a.onFailure();
            b.onFailure();
        }
        assertThat(ejectedGauge()).isEqualTo(2.0);
        assertThat(meters.get("egress.border.ejections").counter().count()).isEqualTo(2.0);
        assertThat(a.isEjected()).isTrue();
        now.addAndGet(Duration.ofSeconds(30).toNanos());
        assertThat(a.isEjected()).as("the hold has passed").isFalse();
        assertThat(ejectedGauge()).as("a read-only look ends no ejection").isEqualTo(2.0);
        assertThat(a.isHealthy()).isTrue();
        assertThat(ejectedGauge()).isEqualTo(1.0);
    }

    private double ejectedGauge() {
        return meters.get("egress.border.ejected").gauge().value();
    }
}
