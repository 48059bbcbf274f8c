package dev.egress.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class DispatchPropertiesTest {

    private static DispatchProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("egress.dispatch", DispatchProperties.class);
    }

    @Test
    void livenessAndDeadlineDefaultsNoticeADeadLinkInAboutASecond() {
        DispatchProperties defaults = bind(Map.of());

        assertThat(defaults.pingInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(defaults.pingTimeout()).isEqualTo(Duration.ofMillis(750));
        assertThat(defaults.deadlineMargin()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void refusesAPingIntervalOrTimeoutThatIsNotPositive() {
        assertThatThrownBy(() -> bind(Map.of("egress.dispatch.ping-interval", "0s")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessage("egress.dispatch.ping-interval: PT0S (expected: > 0)");
        assertThatThrownBy(() -> bind(Map.of("egress.dispatch.ping-timeout", "-1s")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessage("egress.dispatch.ping-timeout: PT-1S (expected: > 0)");
    }

    @Test
    void refusesADeadlineMarginThatIsNegativeOrEatsTheWholeAttempt() {
        assertThatThrownBy(() -> bind(Map.of("egress.dispatch.deadline-margin", "-1ms")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessage("egress.dispatch.deadline-margin: PT-0.001S (expected: >= 0)");
        assertThatThrownBy(() ->
                        bind(Map.of("egress.dispatch.deadline-margin", "5s", "egress.dispatch.attempt-timeout", "5s")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessage("egress.dispatch.deadline-margin: PT5S (expected: < attempt-timeout PT5S)");
        assertThat(bind(Map.of("egress.dispatch.deadline-margin", "0ms")).deadlineMargin())
                .isZero();
    }
}
