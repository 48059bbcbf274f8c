package dev.egress.app.tenants;

import dev.egress.discovery.EgressIp;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole tenants file, validated and immutable: which IPs each tenant may leave from. Swapped
 * wholesale when the file changes.
 *
 * @param sharedPool IPs for tenants without dedicated ones
 * @param tenants    tenants by id
 */
public record TenantPolicy(List<EgressIp> sharedPool, Map<String, Tenant> tenants) {

    /** Copies both collections. */
    public TenantPolicy {
        sharedPool = List.copyOf(sharedPool);
        tenants = Map.copyOf(tenants);
    }

    /**
     * A tenant by id.
     *
     * @param id the tenant id
     * @return the tenant, empty if unknown
     */
    public Optional<Tenant> tenant(String id) {
        return Optional.ofNullable(tenants.get(id));
    }

    /**
     * The IPs a tenant may leave from: its dedicated IPs, or else the shared pool.
     *
     * @param tenant a tenant of this policy
     * @return the allowed IPs, in file order
     */
    public List<EgressIp> allowedIps(Tenant tenant) {
        return tenant.dedicated() ? tenant.dedicatedIps() : sharedPool;
    }
}
