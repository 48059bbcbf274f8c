package dev.egress.border.identity;

import dev.egress.discovery.registry.EgressIp;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The last word on one dedicated IP's egress identity.
 *
 * @param ip        the announced public address
 * @param bind      the address its sockets bind
 * @param verdict   the verdict
 * @param seen      the address the echo service last saw, null before any answer
 * @param checkedAt when the last check ended (answered or failed), null before the first
 * @param lastError why the last check failed, null when it answered
 */
public record IpIdentity(
        EgressIp ip,
        EgressIp bind,
        IdentityVerdict verdict,
        @Nullable EgressIp seen,
        @Nullable Instant checkedAt,
        @Nullable String lastError) {

    /** ip, bind and verdict are required. */
    public IpIdentity {
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(verdict, "verdict");
    }

    static IpIdentity unverified(EgressIp ip, EgressIp bind) {
        return new IpIdentity(ip, bind, IdentityVerdict.UNVERIFIED, null, null, null);
    }

    /**
     * The verdict after the echo service answered.
     *
     * @param answer the address it saw
     * @param at     when
     * @return MATCH when it saw the public address, MISMATCH otherwise
     */
    IpIdentity answered(EgressIp answer, Instant at) {
        IdentityVerdict next = answer.equals(ip) ? IdentityVerdict.MATCH : IdentityVerdict.MISMATCH;
        return new IpIdentity(ip, bind, next, answer, at, null);
    }

    /**
     * The verdict after a check that got no usable answer: the previous verdict stands (an echo outage
     * neither proves nor disproves anything), so an unverified IP stays withheld and a matching one
     * stays served.
     *
     * @param error why it failed
     * @param at    when
     * @return the same verdict with the failure recorded
     */
    IpIdentity failed(String error, Instant at) {
        return new IpIdentity(ip, bind, verdict, seen, at, error);
    }

    /**
     * Whether the IP must not carry traffic.
     *
     * @return true unless the last answer matched
     */
    public boolean withheld() {
        return verdict != IdentityVerdict.MATCH;
    }
}
