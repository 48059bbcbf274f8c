package dev.egress.app.status;

import dev.egress.app.config.SecurityProperties;
import dev.egress.app.tenants.TenantPolicy;
import dev.egress.app.tenants.TenantPolicyStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Checks the tenant-bound token keys ({@code egress.security.tenant-api-tokens.<tenantId>},
 * {@code egress.security.tenant-api-token-files.<tenantId>}) against the tenants file. A key that names no
 * tenant is a typo (the tenant's senders get 403 while the token acts for nobody) or a leftover, and a
 * leftover is a latent credential: it starts acting for whichever tenant is later added under that id.
 *
 * <p>At startup such a key stops the App (the policy and the keys are both fixed then, so it can only be a
 * mistake). The tenants file is re-read while App runs, and the keys are not: a file that drops a tenant whose
 * key remains is still applied, because refusing it would keep an offboarded tenant sending until someone
 * also restarted every App with new keys. The key then shows here instead: the health contributor
 * {@code tenantTokens} (UP, as the tenants file's own contributor is, with {@code valid=false} and the keys),
 * the gauge {@code egress.security.tenant.tokens.unknown} and one WARN line per change.
 */
final class TenantTokenKeys implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(TenantTokenKeys.class);

    /** Tenant id to the property that binds tokens to it. */
    private final Map<String, String> keys;
    /** The keys naming no tenant of the current policy: tenant id to property. */
    private final AtomicReference<Map<String, String>> unknown = new AtomicReference<>(Map.of());

    /**
     * Checks the keys against the current policy and follows later policies.
     *
     * @param security the token configuration
     * @param tenants  the tenants file
     * @param meters   metrics registry
     * @throws IllegalStateException if a key names no tenant of the policy App starts with
     */
    TenantTokenKeys(SecurityProperties security, TenantPolicyStore tenants, MeterRegistry meters) {
        Map<String, String> named = new TreeMap<>();
        security.tenantApiTokens().keySet().forEach(id -> named.put(id, "egress.security.tenant-api-tokens." + id));
        security.tenantApiTokenFiles()
                .keySet()
                .forEach(id -> named.put(id, "egress.security.tenant-api-token-files." + id));
        this.keys = Map.copyOf(named);
        Map<String, String> atStart = unknownIn(tenants.current());
        if (!atStart.isEmpty()) {
            throw new IllegalStateException(
                    "%s: no such tenant in egress.tenants.file %s (expected: every tenant-bound token key names a tenant)"
                            .formatted(atStart.values(), tenants.state().file()));
        }
        Gauge.builder(
                        "egress.security.tenant.tokens.unknown",
                        unknown,
                        u -> u.get().size())
                .description("Tenant-bound token keys that name no tenant of the current tenants file")
                .register(meters);
        tenants.addListener(this::follow);
    }

    private void follow(TenantPolicy policy) {
        Map<String, String> next = unknownIn(policy);
        Map<String, String> previous = unknown.getAndSet(next);
        if (!next.equals(previous)) {
            if (next.isEmpty()) {
                log.info("Every tenant-bound token key names a tenant again");
            } else {
                log.warn(
                        "Tenant-bound token keys {} name no tenant of the tenants file: their tokens act for nobody now "
                                + "and for a tenant later added under that id; remove the keys",
                        next.values());
            }
        }
    }

    private Map<String, String> unknownIn(TenantPolicy policy) {
        Set<String> present = policy.tenants().keySet();
        Map<String, String> result = new TreeMap<>();
        keys.forEach((id, property) -> {
            if (!present.contains(id)) {
                result.put(id, property);
            }
        });
        return Map.copyOf(result);
    }

    @Override
    public Health health() {
        Map<String, String> current = unknown.get();
        return Health.up()
                .withDetail("keys", keys.size())
                .withDetail("valid", current.isEmpty())
                .withDetail("unknownTenants", new TreeMap<>(current))
                .build();
    }
}
