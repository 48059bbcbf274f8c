package dev.egress.app.proxy;

import java.util.Optional;

/**
 * Which tenant claims a destination, for a sender that leaves the proxy user empty. The tenants file's
 * {@code destinations} answer it; until a policy claims anything, nothing is claimed.
 */
@FunctionalInterface
interface DestinationClaims {

    /** Claims nothing. */
    DestinationClaims NONE = (host, port) -> Optional.empty();

    /**
     * The tenant that claims a destination.
     *
     * @param host the CONNECT's host, lower case
     * @param port its port
     * @return the tenant id, or empty when unclaimed
     */
    Optional<String> claimant(String host, int port);
}
