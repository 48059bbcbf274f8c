package dev.egress.discovery;

import java.util.Objects;

/**
 * One dedicated IP as a Border announces it.
 *
 * @param ip     the IP
 * @param status what the Border does with it now
 */
public record AnnouncedIp(EgressIp ip, IpStatus status) {

    /** Both parts are required. */
    public AnnouncedIp {
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(status, "status");
    }

    /**
     * The same IP in another status.
     *
     * @param newStatus the status
     * @return a copy with {@code newStatus}
     */
    public AnnouncedIp withStatus(IpStatus newStatus) {
        return new AnnouncedIp(ip, newStatus);
    }
}
