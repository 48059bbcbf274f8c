package dev.egress.app.routing;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import java.util.Objects;

/**
 * One Border's claim of one IP: the pair that {@link StandingClaims} keeps and the claims table stores
 * ({@link ClaimRecords}).
 *
 * @param ip     the IP
 * @param border the Border claiming it
 */
public record Claim(EgressIp ip, BorderId border) {

    /** Refuses a missing part. */
    public Claim {
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(border, "border");
    }

    /** The claim as logs show it, {@code ip@border}. */
    @Override
    public String toString() {
        return ip + "@" + border;
    }
}
