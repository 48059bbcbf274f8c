package dev.egress.app.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.egress.app.tenants.RetryDelays;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class RetryPropertiesTest {

    private static RetryProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("egress.delivery.retry", RetryProperties.class);
    }

    @Test
    void theDefaultsAreTheDocumentedSchedule() {
        RetryProperties defaults = bind(Map.of());

        assertThat(defaults.forTenant(null)).isEqualTo(RetrySchedule.DEFAULT);
        assertThat(defaults.schedule()).isEqualTo(RetryDelays.DEFAULT.delays());
    }

    @Test
    void aTenantsOwnDelaysReplaceTheGlobalOnesButKeepTheBounds() {
        RetryProperties global = bind(Map.of(
                "egress.delivery.retry.schedule", "0s,1m",
                "egress.delivery.retry.jitter", "0.1",
                "egress.delivery.retry.retry-after-floor", "1s",
                "egress.delivery.retry.retry-after-ceiling", "1h"));
        RetryDelays own = new RetryDelays(List.of(Duration.ZERO, Duration.ofSeconds(30), Duration.ofHours(1)));

        assertThat(global.forTenant(null).delays().delays()).containsExactly(Duration.ZERO, Duration.ofMinutes(1));
        assertThat(global.forTenant(own))
                .isEqualTo(new RetrySchedule(own, 0.1, Duration.ofSeconds(1), Duration.ofHours(1)));
    }

    @Test
    void refusesABadScheduleOrBoundNamingTheProperty() {
        assertThatThrownBy(() -> bind(Map.of("egress.delivery.retry.schedule", "0s,8d")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessage("egress.delivery.retry.schedule[1]: 192h (expected: 0s to 168h)");
        assertThatThrownBy(() -> bind(Map.of("egress.delivery.retry.jitter", "0.9")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessage("egress.delivery.retry.jitter: 0.9 (expected: 0 to 0.5)");
        assertThatThrownBy(() -> bind(Map.of("egress.delivery.retry.retry-after-ceiling", "1s")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessageStartingWith("egress.delivery.retry.retry-after-ceiling: PT1S");
    }
}
