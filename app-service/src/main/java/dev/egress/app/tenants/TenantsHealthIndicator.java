package dev.egress.app.tenants;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Shows the tenants file's state. Stays UP while an invalid edit is pending — the App keeps serving
 * the last good policy — but says so in the details ({@code valid=false}, {@code lastError}) so an
 * operator sees that their change did not apply.
 */
final class TenantsHealthIndicator implements HealthIndicator {

    private final TenantPolicyStore store;

    TenantsHealthIndicator(TenantPolicyStore store) {
        this.store = store;
    }

    @Override
    public Health health() {
        TenantPolicyStore.State state = store.state();
        Health.Builder health = Health.up()
                .withDetail("file", state.file().toString())
                .withDetail("tenants", state.tenants())
                .withDetail("valid", state.valid());
        if (state.appliedAt() != null) {
            health.withDetail("appliedAt", state.appliedAt().toString());
        }
        if (state.lastError() != null) {
            health.withDetail("lastError", state.lastError())
                    .withDetail("lastErrorAt", state.lastErrorAt().toString());
        }
        return health.build();
    }
}
