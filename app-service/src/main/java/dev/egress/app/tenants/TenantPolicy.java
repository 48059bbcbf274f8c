package dev.egress.app.tenants;

import dev.egress.discovery.registry.EgressIp;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole tenants file, validated and immutable: which IPs each tenant may leave from, and which
 * destinations each claims. Swapped wholesale when the file changes.
 *
 * <p>A class rather than a record because it also holds an index derived from its tenants (who claims
 * which destination), built once here so that the proxy's lookup per request is a few map probes.
 */
public final class TenantPolicy {

    private final List<EgressIp> sharedPool;
    private final Map<String, Tenant> tenants;
    private final DestinationIndex destinations;

    /**
     * Copies both collections and indexes the tenants' destinations.
     *
     * @param sharedPool IPs for tenants without dedicated ones
     * @param tenants    tenants by id
     * @throws IllegalArgumentException if two tenants claim the same destination
     */
    public TenantPolicy(List<EgressIp> sharedPool, Map<String, Tenant> tenants) {
        this.sharedPool = List.copyOf(sharedPool);
        this.tenants = Map.copyOf(tenants);
        this.destinations = DestinationIndex.of(this.tenants.values());
    }

    /**
     * IPs for tenants without dedicated ones.
     *
     * @return the shared pool, in file order
     */
    public List<EgressIp> sharedPool() {
        return sharedPool;
    }

    /**
     * Every tenant.
     *
     * @return tenants by id
     */
    public Map<String, Tenant> tenants() {
        return tenants;
    }

    /**
     * A tenant by id.
     *
     * @param id the tenant id
     * @return the tenant, empty if unknown
     */
    public Optional<Tenant> tenant(String id) {
        return Optional.ofNullable(tenants.get(id));
    }

    /**
     * The IPs a tenant may leave from: its dedicated IPs, or else the shared pool.
     *
     * @param tenant a tenant of this policy
     * @return the allowed IPs, in file order
     */
    public List<EgressIp> allowedIps(Tenant tenant) {
        return tenant.dedicated() ? tenant.dedicatedIps() : sharedPool;
    }

    /**
     * The tenant whose {@code destinations} claim {@code host:port}, by the most specific entry: an exact
     * host or IP literal beats a wildcard, a longer wildcard suffix beats a shorter one, and an entry with
     * the port beats the same entry without one. Host names compare case-insensitively and without a
     * trailing dot; IP literals by their canonical form.
     *
     * @param host the destination host (a name, or an IP literal, IPv6 with or without brackets)
     * @param port the destination port, 1..65535
     * @return the claiming tenant, or empty when no tenant claims it (the proxy then uses the shared pool)
     * @throws IllegalArgumentException if {@code port} is out of range
     */
    public Optional<Tenant> claimant(String host, int port) {
        return destinations.claimant(host, port);
    }
}
