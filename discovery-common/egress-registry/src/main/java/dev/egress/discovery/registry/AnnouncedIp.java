package dev.egress.discovery.registry;

import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One dedicated IP as a Border announces it.
 *
 * <p>Behind a NAT (an AWS Elastic IP associated with a private secondary IP, say) the address a
 * Border binds is not the address the world sees. {@code ip} is always the address customers see and
 * allowlist, and the routing identity everywhere (tenants file, routing, status views); {@code bind} is
 * the local address the Border's sockets use, equal to {@code ip} when there is no NAT.
 *
 * <p>{@code reason} says why the Border itself withholds an IP that its operator did not take out, such as
 * {@code egress-identity-mismatch} when the egress identity check saw the IP leave as another address; it
 * is absent for an operator's own DRAINING or DISABLED and never accompanies ACTIVE. The reason
 * {@value #RELEASED} says an operator moved the IP away from this Border: the Border still hosts it but no longer
 * claims it, so its announcement is no claim in the one-owner rule of dedicated IPs ({@link #claims()}).
 *
 * @param ip     the public address: what customers allowlist and App routes by
 * @param bind   the local address the Border binds for {@code ip} (equal to {@code ip} without NAT)
 * @param status what the Border does with it now
 * @param reason why the Border withholds it, a slug ({@code [a-z0-9][a-z0-9-]{0,63}}); null when it does not
 */
public record AnnouncedIp(
        EgressIp ip,
        EgressIp bind,
        IpStatus status,
        @Nullable String reason) {

    /** The reason of an IP an operator moved away from this Border: announced, but no longer claimed. */
    public static final String RELEASED = "released";

    private static final Pattern REASON = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    /** ip, bind and status are required; a reason is a slug and never comes with ACTIVE. */
    public AnnouncedIp {
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(status, "status");
        if (reason != null) {
            if (!REASON.matcher(reason).matches()) {
                throw new IllegalArgumentException("reason: %s (expected: [a-z0-9][a-z0-9-]{0,63})"
                        .formatted(InvalidAnnouncementException.quoted(reason)));
            }
            if (status.takesNewTraffic()) {
                throw new IllegalArgumentException(
                        "reason: %s with status %s (expected: a reason only with a status that takes no new traffic)"
                                .formatted(reason, status));
            }
        }
    }

    /**
     * An IP the Border does not withhold by itself.
     *
     * @param ip     the public address
     * @param bind   the bind address
     * @param status its status
     */
    public AnnouncedIp(EgressIp ip, EgressIp bind, IpStatus status) {
        this(ip, bind, status, null);
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
     * Whether this Border claims the IP: every announced IP does, unless an operator released it here
     * ({@value #RELEASED}). Two claims of one IP by live Borders are a conflict, whatever their statuses.
     *
     * @return false only for a released IP
     */
    public boolean claims() {
        return !RELEASED.equals(reason);
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
     * The same IP in another status, without a reason (an operator's status speaks for itself).
     *
     * @param newStatus the status
     * @return a copy with {@code newStatus}
     */
    public AnnouncedIp withStatus(IpStatus newStatus) {
        return new AnnouncedIp(ip, bind, newStatus, null);
    }

    /**
     * The same IP withheld by the Border itself: {@code DISABLED} with the reason.
     *
     * @param why the reason slug
     * @return a disabled copy carrying {@code why}
     */
    public AnnouncedIp withheld(String why) {
        return new AnnouncedIp(ip, bind, IpStatus.DISABLED, Objects.requireNonNull(why, "why"));
    }
}
