package dev.egress.app.routing;

import dev.egress.app.tenants.Tenant;
import dev.egress.app.tenants.TenantPolicy;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.app.tenants.UnknownTenantException;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import dev.egress.discovery.registry.select.BorderSelector;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Routes a tenant to a Border from local state only: the tenant policy and the routing snapshot. Per
 * (policy, snapshot) pair the candidate routes of every tenant are precomputed once, so the request path
 * is two map lookups and a selector call. A dedicated tenant's candidates contain only routes through its
 * own IPs; there is no code path that widens them. A dedicated IP that two or more live Borders announce,
 * whatever their statuses, is left out of its tenant's candidates: each claim is authorised (the Border
 * certificates name the IP), so one of them is a misconfiguration or a stolen key, and picking by Border id
 * could hand the tenant's traffic to the wrong one. Counting only ACTIVE claims would hand the IP to the
 * second claimant whenever its owner drains or is disabled, and clear the alert at that moment; counting only
 * live claims would do the same while the owner restarts or after it crashed, so an owner's claim stands while
 * it holds no slot ({@link StandingClaims}; with durable delivery on, stored for every App by {@link ClaimsSync}).
 * A dedicated IP moves only when an operator takes it off the old Border: its configuration, or a move through
 * App's operator API, after which the old Border announces it as released, which is no claim
 * ({@link RoutingSnapshot#conflicts()}). Shared-pool IPs keep every route
 * ({@code egress.routing.shared-strategy} picks), because a shared IP carries no single tenant's allowlist.
 *
 * <p>Dedicated and shared-pool tenants have a strategy each: a dedicated tenant's few IPs are its own,
 * while a shared pool exists to spread load and sending reputation, so by default its tenants are
 * spread by a rendezvous hash of the tenant id (each tenant stays on one IP while the pool is stable).
 */
public final class EgressRouter {

    /** What requests route on: one immutable value, swapped whole. */
    record View(
            TenantPolicy policy,
            RoutingSnapshot snapshot,
            Map<String, Resolution> byTenant,
            Resolution sharedPool,
            StandingClaims claims,
            int dedicatedConflicts) {}

    /**
     * The tenant id a {@link #resolveSharedPool()} resolution names: not a valid id in a tenants file (which
     * refuses parentheses), so it can never be mistaken for a tenant's.
     */
    public static final String SHARED_POOL = "(shared pool)";

    private final RoutingTable table;
    private final TenantPolicyStore tenants;
    private final BorderSelector selector;
    private final BorderSelector sharedSelector;
    private final RoutingProperties properties;
    private final Counter panics;
    private volatile View view;

    /**
     * Creates the router and subscribes it to snapshot and policy changes.
     *
     * @param table          the routing table
     * @param tenants        the tenant policy
     * @param selector       the strategy for dedicated tenants (keyed by tenant and URL)
     * @param sharedSelector the strategy for shared-pool tenants (keyed by tenant only)
     * @param properties     routing settings
     * @param meters         metrics registry
     */
    public EgressRouter(
            RoutingTable table,
            TenantPolicyStore tenants,
            BorderSelector selector,
            BorderSelector sharedSelector,
            RoutingProperties properties,
            MeterRegistry meters) {
        this.table = table;
        this.tenants = tenants;
        this.selector = selector;
        this.sharedSelector = sharedSelector;
        this.properties = properties;
        this.panics = Counter.builder("egress.routing.panic")
                .description("Selections that ignored passive-health ejection because every candidate was ejected")
                .register(meters);
        RoutingSnapshot first = table.current();
        this.view = build(tenants.current(), first, StandingClaims.none().after(first));
        Gauge.builder(
                        "egress.routing.ips.conflicts.dedicated",
                        this,
                        r -> r.currentView().dedicatedConflicts())
                .description("Dedicated IPs claimed by two or more Borders, whatever their statuses, an absent owner"
                        + " included: they carry none of their tenant's deliveries (fail closed)")
                .register(meters);
        table.addListener(snapshot -> refresh());
        tenants.addListener(policy -> refresh());
    }

    /**
     * Resolves a tenant to its candidate routes.
     *
     * @param tenantId the tenant id
     * @return the resolution, with at least one candidate
     * @throws UnknownTenantException      if the tenant is not in the policy
     * @throws NoEgressAvailableException  if no allowed IP is ACTIVE on a live Border, or the snapshot is
     *                                     too stale for this tenant
     */
    public Resolution resolve(String tenantId) {
        Resolution resolution = currentView().byTenant().get(tenantId);
        if (resolution == null) {
            TenantPolicyStore.State policy = tenants.state();
            throw policy.valid() ? new UnknownTenantException(tenantId) : new UnknownTenantException(tenantId, policy);
        }
        return usable(tenantId, resolution);
    }

    /**
     * Resolves the shared pool as a tenant of its own: a proxied send whose destination no tenant claims. The
     * rules are a shared-pool tenant's ({@code shared-when-stale}, no live IP: 503).
     *
     * @return the resolution, with at least one candidate; its tenant is {@link #SHARED_POOL}
     * @throws NoEgressAvailableException if no shared-pool IP is ACTIVE on a live Border, or the snapshot is
     *                                    too stale for shared traffic
     */
    public Resolution resolveSharedPool() {
        return usable(SHARED_POOL, currentView().sharedPool());
    }

    private Resolution usable(String tenantId, Resolution resolution) {
        if (tooStaleFor(resolution)) {
            throw new NoEgressAvailableException(
                    "routing data is older than %s; %s traffic fails closed"
                            .formatted(properties.maxStaleness(), resolution.tenantClass()),
                    table.isReady() ? NoEgressReason.ROUTING_STALE : NoEgressReason.ROUTING_NOT_READY,
                    properties.retryAfter());
        }
        if (resolution.candidates().isEmpty()) {
            if (!resolution.conflicted().isEmpty()) {
                throw new NoEgressAvailableException(
                        "tenant '%s': %s announced by more than one live Border (fails closed)"
                                .formatted(tenantId, resolution.conflicted()),
                        NoEgressReason.IP_CONFLICT,
                        properties.retryAfter());
            }
            throw new NoEgressAvailableException(
                    "no IP allowed for tenant '%s' is ACTIVE on a live Border".formatted(tenantId),
                    NoEgressReason.NO_LIVE_IP,
                    properties.retryAfter());
        }
        return resolution;
    }

    /**
     * Picks a route among a resolution's candidates, skipping Borders already tried and, unless every
     * remaining one is unhealthy (panic mode), unhealthy Borders.
     *
     * @param resolution a resolution from {@link #resolve}
     * @param requestKey the delivery's hash (tenant and URL), for stable strategies of dedicated tenants;
     *                   shared-pool tenants are keyed by their id alone
     * @param tried      Borders already attempted for this delivery
     * @param healthy    whether a Border currently takes traffic (not ejected, breaker not open)
     * @return the route, or null if every candidate Border was tried
     */
    public @Nullable Route choose(
            Resolution resolution, long requestKey, Set<BorderId> tried, Predicate<BorderId> healthy) {
        boolean dedicated = resolution.tenant().dedicated();
        BorderSelector selector = dedicated ? this.selector : sharedSelector;
        // String caches its hash code, so the shared key costs nothing per request; the selectors mix it.
        long key = dedicated ? requestKey : resolution.tenant().id().hashCode();
        List<Route> candidates = resolution.candidates();
        boolean allUsable = true;
        for (int i = 0; i < candidates.size() && allUsable; i++) {
            BorderId border = candidates.get(i).borderId();
            allUsable = !tried.contains(border) && healthy.test(border);
        }
        if (allUsable) {
            return selector.select(candidates, key); // the common case: no allocation
        }
        List<Route> untried = new ArrayList<>(candidates.size());
        List<Route> usable = new ArrayList<>(candidates.size());
        for (Route route : candidates) {
            if (!tried.contains(route.borderId())) {
                untried.add(route);
                if (healthy.test(route.borderId())) {
                    usable.add(route);
                }
            }
        }
        if (untried.isEmpty()) {
            return null;
        }
        if (usable.isEmpty()) {
            // Panic mode: failing everything because every Border looks unhealthy is worse than trying one.
            panics.increment();
            return selector.select(untried, key);
        }
        return selector.select(usable, key);
    }

    /**
     * Whether the snapshot is past {@code egress.routing.max-staleness} (or was never loaded).
     *
     * @return true if stale
     */
    public boolean isStale() {
        return table.age().compareTo(properties.maxStaleness()) > 0;
    }

    /**
     * The stale-routing rule, stated once: past {@code egress.routing.max-staleness}, dedicated traffic fails closed,
     * and shared-pool traffic too unless {@code shared-when-stale} is {@code serve} (a stale shared route risks at
     * worst a refused attempt, retried elsewhere).
     *
     * @param resolution a tenant's resolution (or the shared pool's)
     * @return true when this tenant's traffic may not be routed now
     */
    public boolean tooStaleFor(Resolution resolution) {
        return isStale()
                && (resolution.tenant().dedicated()
                        || properties.sharedWhenStale() == RoutingProperties.SharedWhenStale.FAIL);
    }

    /**
     * A tenant's precomputed resolution without the staleness and availability checks of
     * {@link #resolve}, for the status API and metrics.
     *
     * @param tenantId the tenant
     * @return the resolution (candidates may be empty), or null if the tenant is unknown
     */
    public @Nullable Resolution peek(String tenantId) {
        return currentView().byTenant().get(tenantId);
    }

    /**
     * The strategy in use for dedicated tenants.
     *
     * @return the selector's name
     */
    public String strategy() {
        return selector.name();
    }

    /**
     * The strategy in use for shared-pool tenants.
     *
     * @return the selector's name
     */
    public String sharedStrategy() {
        return sharedSelector.name();
    }

    View currentView() {
        View current = view;
        // Listeners refresh the view after each swap; this check closes the window between a swap and
        // its listener, so a request never routes on a policy or snapshot that was already replaced.
        if (current.policy() != tenants.current() || current.snapshot() != table.current()) {
            return refresh();
        }
        return current;
    }

    /**
     * The dedicated and shared IPs with more than one standing claim: two live Borders claiming one IP, or a live
     * claimant beside an owner that holds no slot now ({@link StandingClaims}).
     *
     * @return IP to the claimants, both sorted; unmodifiable
     */
    public Map<EgressIp, List<BorderId>> conflicts() {
        return currentView().claims().conflicts();
    }

    /**
     * Records an operator's move of an IP through this App: from now on only {@code to} claims it here, an absent
     * owner's claim included (the one way such a claim ends while its Border stays away). With the claims table on,
     * {@link ClaimsSync#recordMove} stores the move first and then calls this.
     *
     * @param ip the IP
     * @param to the Border the IP was moved to
     */
    public synchronized void operatorMoved(EgressIp ip, BorderId to) {
        View current = refresh();
        StandingClaims claims = current.claims().moved(ip, to);
        view = build(current.policy(), current.snapshot(), claims);
    }

    /**
     * Takes the absent Borders' claims from a read of the claims table ({@link StandingClaims#stored}).
     *
     * @param rows  the table as read now
     * @param known what the table held or was given before this read
     */
    synchronized void storedClaims(Set<Claim> rows, Set<Claim> known) {
        View current = refresh();
        StandingClaims claims = current.claims().stored(rows, known, current.snapshot());
        if (claims != current.claims()) {
            view = build(current.policy(), current.snapshot(), claims);
        }
    }

    private synchronized View refresh() {
        TenantPolicy policy = tenants.current();
        RoutingSnapshot snapshot = table.current();
        View current = view;
        if (current.policy() == policy && current.snapshot() == snapshot) {
            return current;
        }
        // Claims follow snapshots in order: the view is rebuilt under this lock for every snapshot it sees.
        StandingClaims claims = current.snapshot() == snapshot
                ? current.claims()
                : current.claims().after(snapshot);
        View next = build(policy, snapshot, claims);
        view = next;
        return next;
    }

    private static View build(TenantPolicy policy, RoutingSnapshot snapshot, StandingClaims claims) {
        Map<List<EgressIp>, List<Route>> byIpList = new IdentityHashMap<>();
        Map<String, Resolution> byTenant = new HashMap<>(policy.tenants().size() * 2);
        Set<EgressIp> conflicted = new HashSet<>();
        for (Tenant tenant : policy.tenants().values()) {
            List<EgressIp> allowed = policy.allowedIps(tenant);
            if (tenant.dedicated()) {
                Resolution resolution = dedicated(tenant, allowed, snapshot, claims);
                conflicted.addAll(resolution.conflicted());
                byTenant.put(tenant.id(), resolution);
            } else {
                // Shared tenants all hold the same list instance: compute their candidates once.
                List<Route> candidates = byIpList.computeIfAbsent(allowed, snapshot::eligibleRoutes);
                byTenant.put(tenant.id(), new Resolution(tenant, allowed, candidates, List.of()));
            }
        }
        Tenant pool = new Tenant(SHARED_POOL, List.of());
        List<EgressIp> shared = policy.sharedPool();
        Resolution sharedPool =
                new Resolution(pool, shared, byIpList.computeIfAbsent(shared, snapshot::eligibleRoutes), List.of());
        return new View(policy, snapshot, Map.copyOf(byTenant), sharedPool, claims, conflicted.size());
    }

    /**
     * A dedicated tenant's routes: through each allowed IP that at most one Border claims (and that Border
     * announces it ACTIVE). A second claim of any status is a conflict: a draining, disabled or absent owner still
     * owns it; only an IP an operator released on a Border, or took out of its configuration, is no claim of that
     * Border.
     */
    private static Resolution dedicated(
            Tenant tenant, List<EgressIp> allowed, RoutingSnapshot snapshot, StandingClaims claims) {
        List<EgressIp> conflicted = new ArrayList<>(0);
        List<EgressIp> owned = new ArrayList<>(allowed.size());
        for (EgressIp ip : allowed) {
            if (claims.conflicts().containsKey(ip)) {
                conflicted.add(ip);
            } else {
                owned.add(ip);
            }
        }
        List<Route> candidates = snapshot.eligibleRoutes(conflicted.isEmpty() ? allowed : owned);
        return new Resolution(tenant, allowed, candidates, conflicted);
    }
}
