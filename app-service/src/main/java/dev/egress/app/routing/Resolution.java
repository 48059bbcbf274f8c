package dev.egress.app.routing;

import dev.egress.app.tenants.Tenant;
import dev.egress.discovery.EgressIp;
import dev.egress.discovery.Route;
import java.util.List;

/**
 * A tenant resolved against one snapshot: the IPs it may leave from and the routes that can carry it
 * now (ACTIVE on a live Border), precomputed once per snapshot and policy.
 *
 * @param tenant     the tenant
 * @param allowedIps its dedicated IPs, or the shared pool
 * @param candidates eligible routes through the allowed IPs, in allowed-IP order then Border id
 */
public record Resolution(Tenant tenant, List<EgressIp> allowedIps, List<Route> candidates) {

    /**
     * The tenant class, as metrics tag it.
     *
     * @return {@code dedicated} or {@code shared}
     */
    public String tenantClass() {
        return tenant.dedicated() ? "dedicated" : "shared";
    }
}
