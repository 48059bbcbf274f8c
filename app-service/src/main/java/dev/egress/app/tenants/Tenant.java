package dev.egress.app.tenants;

import dev.egress.discovery.EgressIp;
import java.util.List;
import java.util.Objects;

/**
 * One tenant as the tenants file defines it.
 *
 * @param id           the tenant id clients send as {@code tenantId}
 * @param dedicatedIps the tenant's own IPs; empty for a tenant on the shared pool
 */
public record Tenant(String id, List<EgressIp> dedicatedIps) {

    /** Copies the IP list. */
    public Tenant {
        Objects.requireNonNull(id, "id");
        dedicatedIps = List.copyOf(dedicatedIps);
    }

    /**
     * Whether the tenant has dedicated IPs (and so must never leave from any other IP).
     *
     * @return true for a dedicated tenant
     */
    public boolean dedicated() {
        return !dedicatedIps.isEmpty();
    }
}
