package dev.egress.discovery.registry.ydb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void ceilingDoublesFromBaseUpToCap() {
        List<Long> ceilings = new ArrayList<>();
        Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30), bound -> {
            ceilings.add(bound);
            return bound;
        });
        for (int i = 0; i < 12; i++) {
            backoff.next();
        }
        assertThat(ceilings)
                .containsExactly(200L, 400L, 800L, 1600L, 3200L, 6400L, 12800L, 25600L, 30000L, 30000L, 30000L, 30000L);
    }

    @Test
    void fullJitterDrawsFromZeroToCeiling() {
        Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30));
        for (int i = 0; i < 200; i++) {
            Duration delay = backoff.next();
            assertThat(delay).isBetween(Duration.ZERO, Duration.ofSeconds(30));
        }
        backoff.reset();
        for (int i = 0; i < 50; i++) {
            backoff.reset();
            assertThat(backoff.next()).isBetween(Duration.ZERO, Duration.ofMillis(200));
        }
    }

    @Test
    void resetStartsOverAndCountsAttempts() {
        Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30), bound -> bound);
        backoff.next();
        backoff.next();
        assertThat(backoff.attempts()).isEqualTo(2);
        backoff.reset();
        assertThat(backoff.attempts()).isZero();
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void neverOverflowsAfterManyAttempts() {
        Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30), bound -> bound);
        for (int i = 0; i < 1000; i++) {
            assertThat(backoff.next()).isBetween(Duration.ofMillis(200), Duration.ofSeconds(30));
        }
    }

    @Test
    void rejectsCapBelowBase() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("base <= cap");
    }
}
