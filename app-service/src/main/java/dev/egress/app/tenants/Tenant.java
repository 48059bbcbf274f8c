package dev.egress.app.tenants;

import dev.egress.discovery.registry.EgressIp;
import java.util.List;
import java.util.Objects;

/**
 * One tenant as the tenants file defines it.
 *
 * @param id           the tenant id clients send as {@code tenantId}
 * @param dedicatedIps the tenant's own IPs; empty for a tenant on the shared pool
 * @param destinations the destinations the tenant claims: a proxy request for one of them with an empty
 *                     user is sent as this tenant; in file order
 */
public record Tenant(String id, List<EgressIp> dedicatedIps, List<Destination> destinations) {

    /** Copies the lists. */
    public Tenant {
        Objects.requireNonNull(id, "id");
        dedicatedIps = List.copyOf(dedicatedIps);
        destinations = List.copyOf(destinations);
    }

    /**
     * A tenant that claims no destinations.
     *
     * @param id           the tenant id
     * @param dedicatedIps the tenant's own IPs; empty for the shared pool
     */
    public Tenant(String id, List<EgressIp> dedicatedIps) {
        this(id, dedicatedIps, List.of());
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
