package dev.egress.app.tenants;

import dev.egress.discovery.registry.EgressIp;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One tenant as the tenants file defines it.
 *
 * @param id           the tenant id clients send as {@code tenantId}
 * @param dedicatedIps the tenant's own IPs; empty for a tenant on the shared pool
 * @param destinations the destinations the tenant claims: a proxy request for one of them with an empty
 *                     user is sent as this tenant; in file order
 * @param signing      whether its webhooks are signed (Standard Webhooks headers, with the tenant's secrets
 *                     from the signing secrets file)
 * @param retrySchedule the delays of a durable delivery's attempts, or null for the global schedule
 *                     ({@code egress.delivery.retry.schedule})
 */
public record Tenant(
        String id,
        List<EgressIp> dedicatedIps,
        List<Destination> destinations,
        boolean signing,
        @Nullable RetryDelays retrySchedule) {

    /** Copies the lists. */
    public Tenant {
        Objects.requireNonNull(id, "id");
        dedicatedIps = List.copyOf(dedicatedIps);
        destinations = List.copyOf(destinations);
    }

    /**
     * A tenant that does not sign and follows the global retry schedule.
     *
     * @param id           the tenant id
     * @param dedicatedIps the tenant's own IPs; empty for the shared pool
     * @param destinations the destinations the tenant claims
     */
    public Tenant(String id, List<EgressIp> dedicatedIps, List<Destination> destinations) {
        this(id, dedicatedIps, destinations, false, null);
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
