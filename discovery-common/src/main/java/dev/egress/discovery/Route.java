package dev.egress.discovery;

import java.net.URI;
import java.util.Objects;

/**
 * One way out: a dedicated IP as hosted by one live Border, with that Border's status for it.
 * Snapshots precompute these so that selection on the request path allocates nothing.
 *
 * @param ip       the egress IP
 * @param borderId the Border hosting it
 * @param endpoint the Border's URL for App
 * @param status   the Border's status for this IP
 */
public record Route(EgressIp ip, BorderId borderId, URI endpoint, IpStatus status) {

    /** All parts are required. */
    public Route {
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(borderId, "borderId");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(status, "status");
    }

    /**
     * Whether new deliveries may take this route.
     *
     * @return true when the IP is ACTIVE on this Border
     */
    public boolean eligible() {
        return status.takesNewTraffic();
    }
}
