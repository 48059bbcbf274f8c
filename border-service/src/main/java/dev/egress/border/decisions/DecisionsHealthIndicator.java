package dev.egress.border.decisions;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Readiness detail of the stored operator decisions. Always UP: a Border that failed closed must stay
 * reachable so that an operator can set its IPs (its DISABLED IPs take no traffic anyway); the state and the
 * reason are what an operator looks for, next to the ERROR log line.
 */
final class DecisionsHealthIndicator implements HealthIndicator {

    private final DecisionKeeper keeper;

    DecisionsHealthIndicator(DecisionKeeper keeper) {
        this.keeper = keeper;
    }

    @Override
    public Health health() {
        DecisionsState state = keeper.state();
        Health.Builder builder = Health.up().withDetail("state", state.kind().name());
        if (!state.reason().isEmpty()) {
            builder.withDetail("reason", state.reason());
        }
        return builder.withDetail("decisions", keeper.decisions().statuses().size())
                .build();
    }
}
