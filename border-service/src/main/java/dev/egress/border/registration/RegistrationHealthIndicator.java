package dev.egress.border.registration;

import dev.egress.discovery.registry.RegistrationState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Part of readiness: UP only while the slot is held with the current announcement. Not part of
 * liveness — a registry outage must never get a Border restarted.
 */
public final class RegistrationHealthIndicator implements HealthIndicator {

    private final BorderRegistrar registrar;

    /**
     * Creates the indicator.
     *
     * @param registrar the registrar
     */
    public RegistrationHealthIndicator(BorderRegistrar registrar) {
        this.registrar = registrar;
    }

    @Override
    public Health health() {
        RegistrationState state = registrar.state();
        Health.Builder builder = state == RegistrationState.REGISTERED ? Health.up() : Health.outOfService();
        return builder.withDetail("state", state.name())
                .withDetail("borderId", registrar.current().borderId().value())
                .withDetail("generation", registrar.publishedGeneration())
                .build();
    }
}
