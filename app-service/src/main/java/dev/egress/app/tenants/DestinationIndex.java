package dev.egress.app.tenants;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Which tenant claims a destination, built once per policy so that a lookup is a few map probes per
 * label of the host and never a scan of the entries.
 *
 * <p>The most specific entry wins: an exact host (or IP literal) beats any wildcard, a longer wildcard
 * suffix beats a shorter one, and for the same host pattern an entry with the request's port beats one
 * without a port. Identical entries of two tenants never get here: the parser refuses the file.
 */
final class DestinationIndex {

    private final Map<Destination, Tenant> claims;

    private DestinationIndex(Map<Destination, Tenant> claims) {
        this.claims = claims;
    }

    /**
     * Indexes every tenant's destinations.
     *
     * @param tenants the policy's tenants
     * @return the index
     * @throws IllegalArgumentException if two tenants claim the same destination
     */
    static DestinationIndex of(Collection<Tenant> tenants) {
        Map<Destination, Tenant> claims = new HashMap<>();
        for (Tenant tenant : tenants) {
            for (Destination destination : tenant.destinations()) {
                Tenant other = claims.putIfAbsent(destination, tenant);
                if (other != null && other != tenant) {
                    throw new IllegalArgumentException("destination %s is claimed by both '%s' and '%s'"
                            .formatted(destination, other.id(), tenant.id()));
                }
            }
        }
        return new DestinationIndex(Map.copyOf(claims));
    }

    /**
     * The tenant that claims {@code host:port}.
     *
     * @param host the request's host (a name, or an IP literal, IPv6 with or without brackets)
     * @param port the request's port
     * @return the claiming tenant, empty if no entry matches
     */
    Optional<Tenant> claimant(String host, int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port: %d (expected: 1..65535)".formatted(port));
        }
        String key = Destination.lookupKey(host);
        if (key == null) {
            return Optional.empty();
        }
        Tenant exact = probe(key, false, port);
        if (exact != null || Destination.isIpLiteral(key)) {
            return Optional.ofNullable(exact);
        }
        // Suffixes from the longest ("b.example.com" of "a.b.example.com") down: the first hit is the most
        // specific wildcard. The host itself is never a suffix, so "*.example.com" skips "example.com".
        for (int dot = key.indexOf('.'); dot >= 0; dot = key.indexOf('.', dot + 1)) {
            Tenant wildcard = probe(key.substring(dot + 1), true, port);
            if (wildcard != null) {
                return Optional.of(wildcard);
            }
        }
        return Optional.empty();
    }

    private @Nullable Tenant probe(String host, boolean wildcard, int port) {
        Tenant withPort = claims.get(new Destination(host, wildcard, port));
        return withPort != null ? withPort : claims.get(new Destination(host, wildcard, 0));
    }
}
