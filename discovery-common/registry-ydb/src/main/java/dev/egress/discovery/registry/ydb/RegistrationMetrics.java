package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.RegistrationState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Publish-side meters of one Border's registration, tagged {@code border}:
 * {@code egress.registry.registration.state{state}} (1 for the current state),
 * {@code egress.registry.reregistrations} (new sessions after a lost one) and
 * {@code egress.registry.publish.failures} (failed steps and refused publishes).
 */
final class RegistrationMetrics {

    private final StateGauge<RegistrationState> state;
    private final Counter reregistrations;
    private final Counter publishFailures;

    RegistrationMetrics(MeterRegistry meters, BorderId border) {
        Tags tags = Tags.of("border", border.value());
        this.state = new StateGauge<>(
                meters,
                "egress.registry.registration.state",
                "Registration state of this Border's slot (1 = current)",
                tags,
                RegistrationState.REGISTERING);
        this.reregistrations = Counter.builder("egress.registry.reregistrations")
                .description("Registrations redone with a new session after the old one was lost")
                .tags(tags)
                .register(meters);
        this.publishFailures = Counter.builder("egress.registry.publish.failures")
                .description("Failed registration steps and refused publishes")
                .tags(tags)
                .register(meters);
    }

    void state(RegistrationState next) {
        state.set(next);
    }

    void reregistration() {
        reregistrations.increment();
    }

    void publishFailure() {
        publishFailures.increment();
    }
}
