package dev.egress.app.ops;

import dev.egress.app.delivery.Backlog;
import dev.egress.app.fleet.BorderFleet;
import dev.egress.app.fleet.BorderHandle;
import dev.egress.app.resilience.RouteTraffic;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.Resolution;
import dev.egress.app.routing.RoutingProperties;
import dev.egress.app.tenants.Tenant;
import dev.egress.app.tenants.TenantPolicy;
import dev.egress.app.tenants.TenantPolicyStore;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Builds {@link FleetView}s from what this App holds locally (the snapshot, and each Border's handle in the
 * {@link BorderFleet} for its breaker, ejection and traffic); never calls the registry or a Border, so
 * the operator page keeps working (and shows staleness) while the registry is away. Also answers the
 * one question the alerts need between scrapes: which tenants cannot send now.
 */
public final class FleetViews {

    private final RoutingTable table;
    private final TenantPolicyStore tenants;
    private final EgressRouter router;
    private final RoutingProperties routing;
    private final BorderFleet fleet;
    private final Clock clock;
    private final Supplier<Optional<Backlog>> backlog;

    FleetViews(
            RoutingTable table,
            TenantPolicyStore tenants,
            EgressRouter router,
            RoutingProperties routing,
            BorderFleet fleet,
            Clock clock,
            Supplier<Optional<Backlog>> backlog) {
        this.table = table;
        this.tenants = tenants;
        this.router = router;
        this.routing = routing;
        this.fleet = fleet;
        this.clock = clock;
        this.backlog = backlog;
    }

    /**
     * The fleet now.
     *
     * @return the view
     */
    public FleetView current() {
        Instant now = clock.instant();
        RoutingSnapshot snapshot = table.current();
        TenantPolicy policy = tenants.current();
        TenantPolicyStore.State file = tenants.state();
        return new FleetView(
                now,
                snapshot.generation(),
                table.isReady() ? table.age().toMillis() : null,
                router.isStale(),
                routing.maxStaleness().toMillis(),
                router.strategy(),
                borders(snapshot, now),
                ips(snapshot, policy),
                conflicts(router.conflicts()),
                rejected(),
                tenantsWithoutUsableIp(policy),
                new FleetView.TenantsFile(
                        policy.tenants().size(), file == null || file.valid(), file == null ? null : file.lastError()),
                backlog.get().map(FleetViews::durable).orElse(null));
    }

    private static FleetView.Durable durable(Backlog counted) {
        Set<String> ids = new TreeSet<>(counted.due().keySet());
        ids.addAll(counted.dead().keySet());
        List<FleetView.DurableTenant> tenants = new ArrayList<>();
        for (String id : ids) {
            tenants.add(new FleetView.DurableTenant(
                    id, counted.due().getOrDefault(id, 0L), counted.dead().getOrDefault(id, 0L)));
        }
        return new FleetView.Durable(
                counted.at(),
                counted.complete(),
                counted.oldestDue(),
                counted.oldestDueAge().toSeconds(),
                tenants);
    }

    /**
     * Tenants whose webhooks cannot leave now, sorted by id.
     *
     * @return the tenants (dedicated and shared)
     */
    public List<FleetView.TenantWithoutIp> tenantsWithoutUsableIp() {
        return tenantsWithoutUsableIp(tenants.current());
    }

    private List<FleetView.Border> borders(RoutingSnapshot snapshot, Instant now) {
        List<FleetView.Border> borders = new ArrayList<>();
        for (Announcement a : snapshot.announcements().values()) {
            BorderHandle handle = fleet.handle(a.borderId());
            borders.add(new FleetView.Border(
                    a.borderId().value(),
                    a.endpoint().toString(),
                    a.generation(),
                    a.publishedAt(),
                    Math.max(0, Duration.between(a.publishedAt(), now).toMillis()),
                    breakerState(handle),
                    handle != null && handle.ejection().isEjected(),
                    a.ips().stream()
                            .map(ip -> new FleetView.BorderIp(
                                    ip.ip().value(),
                                    ip.bind().value(),
                                    ip.status().name(),
                                    ip.reason()))
                            .toList()));
        }
        return borders;
    }

    private List<FleetView.Ip> ips(RoutingSnapshot snapshot, TenantPolicy policy) {
        Map<EgressIp, List<String>> dedicated = new TreeMap<>();
        int sharedTenants = 0;
        for (Tenant tenant : policy.tenants().values()) {
            if (tenant.dedicated()) {
                for (EgressIp ip : tenant.dedicatedIps()) {
                    dedicated.computeIfAbsent(ip, k -> new ArrayList<>()).add(tenant.id());
                }
            } else {
                sharedTenants++;
            }
        }
        Set<EgressIp> shared = new HashSet<>(policy.sharedPool());
        Set<EgressIp> all = new TreeSet<>(snapshot.ips());
        all.addAll(dedicated.keySet());
        all.addAll(shared);
        List<FleetView.Ip> ips = new ArrayList<>(all.size());
        for (EgressIp ip : all) {
            List<FleetView.Route> routes = new ArrayList<>();
            for (Route route : snapshot.routes(ip)) {
                BorderHandle handle = fleet.handle(route.borderId());
                RouteTraffic.Stats stats = handle == null
                        ? RouteTraffic.Stats.NONE
                        : handle.traffic().stats(ip);
                routes.add(new FleetView.Route(
                        route.borderId().value(),
                        route.status().name(),
                        withheldReason(snapshot, route.borderId(), ip),
                        breakerState(handle),
                        handle != null && handle.ejection().isEjected(),
                        stats.inFlight(),
                        stats.openTunnels(),
                        stats.recentAttempts(),
                        stats.recentFailures(),
                        stats.errorRate()));
            }
            List<String> dedicatedTo = dedicated.getOrDefault(ip, List.of());
            boolean inPool = shared.contains(ip);
            ips.add(new FleetView.Ip(
                    ip.value(),
                    snapshot.status(ip).map(Enum::name).orElse(FleetView.ABSENT),
                    routes.size() > 1,
                    routes,
                    dedicatedTo.stream().sorted().toList(),
                    inPool,
                    inPool ? sharedTenants : 0));
        }
        return ips;
    }

    // The fleet follows the snapshot just after it swaps: a Border this view sees first has no breaker yet.
    private static String breakerState(@Nullable BorderHandle handle) {
        return handle == null
                ? CircuitBreaker.State.CLOSED.name()
                : handle.breaker().getState().name();
    }

    // Why the Border withholds the IP by itself, from its announcement (the route carries only the status).
    private static @Nullable String withheldReason(RoutingSnapshot snapshot, BorderId border, EgressIp ip) {
        Announcement a = snapshot.announcements().get(border);
        if (a == null) {
            return null;
        }
        return a.ips().stream()
                .filter(announced -> announced.ip().equals(ip))
                .map(AnnouncedIp::reason)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null);
    }

    private static List<FleetView.Conflict> conflicts(Map<EgressIp, List<BorderId>> standing) {
        List<FleetView.Conflict> conflicts = new ArrayList<>();
        for (Map.Entry<EgressIp, List<BorderId>> e : standing.entrySet()) {
            conflicts.add(new FleetView.Conflict(
                    e.getKey().value(),
                    e.getValue().stream().map(BorderId::value).toList()));
        }
        return conflicts;
    }

    private List<FleetView.Rejected> rejected() {
        return table.latestRejections().stream()
                .map(r -> new FleetView.Rejected(r.index(), r.reason()))
                .toList();
    }

    private List<FleetView.TenantWithoutIp> tenantsWithoutUsableIp(TenantPolicy policy) {
        List<FleetView.TenantWithoutIp> result = new ArrayList<>();
        for (String id : new TreeSet<>(policy.tenants().keySet())) {
            Resolution resolution = router.peek(id);
            if (resolution == null) {
                continue; // the policy changed under us; the next view has it
            }
            boolean dedicated = resolution.tenant().dedicated();
            String reason = null;
            if (router.tooStaleFor(resolution)) {
                reason = "routing-stale";
            } else if (resolution.candidates().isEmpty()) {
                reason = resolution.conflicted().isEmpty() ? "no-live-ip" : "ip-conflict";
            }
            if (reason != null) {
                result.add(new FleetView.TenantWithoutIp(
                        id,
                        dedicated,
                        reason,
                        resolution.allowedIps().stream().map(EgressIp::value).toList()));
            }
        }
        return result;
    }
}
