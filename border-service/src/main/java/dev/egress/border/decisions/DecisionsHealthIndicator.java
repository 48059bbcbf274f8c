package dev.egress.border.decisions;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Readiness of the stored operator decisions: DOWN while every hosted IP is {@code DISABLED} by the operator's
 * layer (a fail-closed start, or decisions that disable everything), UP otherwise; the state and the reason
 * are details either way, next to the ERROR log line of a fail-closed start.
 *
 * <p>Why not Ready rather than a check in the rollout: a Border that can send nothing has nothing to be ready
 * for, and a rollout that waits for each Border to be Ready (the chart's StatefulSets and rollout Job do) then
 * stops on the first Border whose record was tampered with or lost, instead of carrying it across the fleet.
 * Readiness takes nothing else away: App finds Borders through the registry, not the Service, so the operator
 * API stays reachable (through App or directly) to set the IPs, and the Border turns Ready at the first IP
 * an operator sets to anything but {@code DISABLED}.
 */
final class DecisionsHealthIndicator implements HealthIndicator {

    private final DecisionKeeper keeper;

    DecisionsHealthIndicator(DecisionKeeper keeper) {
        this.keeper = keeper;
    }

    @Override
    public Health health() {
        DecisionsState state = keeper.state();
        boolean everyIpDisabled = keeper.everyIpDisabled();
        Health.Builder builder = everyIpDisabled ? Health.down().withDetail("everyIpDisabled", true) : Health.up();
        builder.withDetail("state", state.kind().name());
        if (!state.reason().isEmpty()) {
            builder.withDetail("reason", state.reason());
        }
        return builder.withDetail("decisions", keeper.decisions().statuses().size())
                .build();
    }
}
