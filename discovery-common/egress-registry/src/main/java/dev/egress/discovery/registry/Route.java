package dev.egress.discovery.registry;

import java.net.URI;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One way out: a dedicated IP as hosted by one live Border, with that Border's status for it.
 * Snapshots precompute these so that selection on the request path allocates nothing.
 *
 * @param ip       the egress IP
 * @param borderId the Border hosting it
 * @param endpoint the Border's URL for App
 * @param status   the Border's status for this IP
 * @param bind     the local address that Border binds for {@code ip} ({@code ip} itself without NAT);
 *                 the only other source address it may truthfully report for a call on this route
 */
public record Route(EgressIp ip, BorderId borderId, URI endpoint, IpStatus status, EgressIp bind) {

    /** All parts are required. */
    public Route {
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(borderId, "borderId");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(bind, "bind");
    }

    /**
     * A route whose IP is bound as it is seen (no NAT).
     *
     * @param ip       the egress IP
     * @param borderId the Border hosting it
     * @param endpoint the Border's URL for App
     * @param status   the Border's status for this IP
     */
    public Route(EgressIp ip, BorderId borderId, URI endpoint, IpStatus status) {
        this(ip, borderId, endpoint, status, ip);
    }

    /**
     * Whether a source address a Border reported for a call on this route is one the route allows:
     * the public IP, or the bind address that belongs to it. Any other address is a breach.
     *
     * @param reported the reported source address (may be null)
     * @return true for {@code ip} or {@code bind}
     */
    public boolean sentFrom(@Nullable EgressIp reported) {
        return ip.equals(reported) || bind.equals(reported);
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
