package dev.egress.app.routing;

import dev.egress.app.tenants.Tenant;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.Route;
import java.util.List;

/**
 * A tenant resolved against one snapshot: the IPs it may leave from and the routes that can carry it
 * now (ACTIVE on a live Border), precomputed once per snapshot and policy.
 *
 * @param tenant      the tenant
 * @param allowedIps  its dedicated IPs, or the shared pool
 * @param candidates  eligible routes through the allowed IPs, in allowed-IP order then Border id
 * @param conflicted  a dedicated tenant's IPs left out of {@code candidates} because two or more live Borders
 *                    announce them, whatever their statuses (the platform does not pick an owner by id: it fails
 *                    closed); always empty for shared-pool tenants
 */
public record Resolution(Tenant tenant, List<EgressIp> allowedIps, List<Route> candidates, List<EgressIp> conflicted) {

    /** Copies the conflicted list. */
    public Resolution {
        conflicted = List.copyOf(conflicted);
    }

    /**
     * Whether an allowed IP can carry this tenant now.
     *
     * @param ip an IP
     * @return true if a candidate route goes through it
     */
    public boolean routes(EgressIp ip) {
        for (Route route : candidates) {
            if (route.ip().equals(ip)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The tenant class, as metrics tag it.
     *
     * @return {@code dedicated} or {@code shared}
     */
    public String tenantClass() {
        return tenant.dedicated() ? "dedicated" : "shared";
    }
}
