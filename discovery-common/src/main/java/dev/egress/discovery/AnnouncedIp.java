package dev.egress.discovery;

import java.util.Objects;

/**
 * One dedicated IP as a Border announces it.
 *
 * <p>Behind a NAT (an AWS Elastic IP associated with a private secondary IP, say) the address a
 * Border binds is not the address the world sees. {@code ip} is always the address customers see and
 * allowlist, and the routing identity everywhere (tenants file, routing, status views); {@code bind} is
 * the local address the Border's sockets use, equal to {@code ip} when there is no NAT.
 *
 * @param ip     the public address: what customers allowlist and App routes by
 * @param bind   the local address the Border binds for {@code ip} (equal to {@code ip} without NAT)
 * @param status what the Border does with it now
 */
public record AnnouncedIp(EgressIp ip, EgressIp bind, IpStatus status) {

    /** All parts are required. */
    public AnnouncedIp {
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(status, "status");
    }

    /**
     * An IP bound as it is seen (no NAT).
     *
     * @param ip     the address, both bound and public
     * @param status its status
     */
    public AnnouncedIp(EgressIp ip, IpStatus status) {
        this(ip, ip, status);
    }

    /**
     * Whether the bound address differs from the public one.
     *
     * @return true behind a NAT
     */
    public boolean translated() {
        return !bind.equals(ip);
    }

    /**
     * The same IP in another status.
     *
     * @param newStatus the status
     * @return a copy with {@code newStatus}
     */
    public AnnouncedIp withStatus(IpStatus newStatus) {
        return new AnnouncedIp(ip, bind, newStatus);
    }
}
