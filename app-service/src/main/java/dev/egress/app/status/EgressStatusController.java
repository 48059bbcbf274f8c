package dev.egress.app.status;

import dev.egress.app.config.TenantAccess;
import dev.egress.app.routing.EgressRouter;
import dev.egress.app.routing.Resolution;
import dev.egress.app.tenants.UnknownTenantException;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import dev.egress.discovery.registry.RoutingTable;
import io.swagger.v3.oas.annotations.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;

/**
 * Read-only views of routing state: every live IP with its Borders, and one tenant's allowlist with
 * whether its webhooks can flow now. Both read the local snapshot only.
 */
@RestController
class EgressStatusController {

    private final RoutingTable table;
    private final EgressRouter router;

    EgressStatusController(RoutingTable table, EgressRouter router) {
        this.table = table;
        this.router = router;
    }

    /**
     * Live IPs.
     *
     * @param generation     this App's snapshot generation: it counts the snapshots App swapped in, so it is
     *                       not comparable across Apps nor with a Border's announcement generation (that one is
     *                       {@link BorderView#generation()})
     * @param ageMillis      time since the registry last confirmed the snapshot; null before the first read
     * @param strategy       the selection strategy for dedicated tenants
     * @param sharedStrategy the selection strategy for shared-pool tenants
     * @param ips        live IPs, sorted
     * @param conflicts  IPs announced by more than one live Border
     * @param rejected   registry owners whose announcement App refused (never routed on) in the latest read
     */
    record IpsView(
            long generation,
            Long ageMillis,
            String strategy,
            String sharedStrategy,
            List<IpView> ips,
            List<ConflictView> conflicts,
            List<RejectedView> rejected) {}

    /**
     * A registry owner's announcement that App refused.
     *
     * @param borderId the Border id it claims (unverified; null if unreadable)
     * @param reason   the reason slug, e.g. {@code untrusted-certificate}, {@code identity-mismatch},
     *                 {@code ip-not-authorised}, {@code expired}, {@code replayed}
     * @param detail   what exactly failed
     */
    record RejectedView(@Nullable String borderId, String reason, String detail) {}

    /**
     * One live IP.
     *
     * @param ip      the IP
     * @param status  best status over its live Borders
     * @param borders its Borders and their status for it
     */
    record IpView(String ip, String status, List<BorderView> borders) {}

    /**
     * One Border's view of an IP.
     *
     * @param id         the Border
     * @param status     its status for the IP
     * @param generation the Border's announcement generation: the same number as its own
     *                   {@code GET /ops/v1/ips} shows, so an operator can tell whether App has seen a change
     */
    record BorderView(String id, String status, long generation) {}

    /**
     * An IP announced by several Borders.
     *
     * @param ip      the IP
     * @param borders the Borders, sorted; for a shared-pool IP the shared strategy picks among the ACTIVE
     *                ones, while a dedicated IP announced ACTIVE by two or more takes none of its tenant's
     *                deliveries (it fails closed)
     */
    record ConflictView(String ip, List<String> borders) {}

    /**
     * A tenant's egress.
     *
     * @param tenantId  the tenant
     * @param dedicated whether it has dedicated IPs
     * @param available whether a delivery could leave now
     * @param ips          the IPs to allowlist, in file order
     * @param destinations the destinations the tenant claims for the forward proxy, normalised, in file order
     */
    record TenantEgressView(
            String tenantId, boolean dedicated, boolean available, List<TenantIpView> ips, List<String> destinations) {}

    /**
     * One allowed IP.
     *
     * @param ip        the IP
     * @param available whether it is ACTIVE on a live Border (and routing data is fresh enough); false for
     *                  a dedicated IP that two or more live Borders announce ACTIVE
     */
    record TenantIpView(String ip, boolean available) {}

    @Operation(summary = "Live egress IPs with their Borders and status, plus conflicts")
    @GetMapping("/v1/egress/ips")
    IpsView ips() {
        RoutingSnapshot snapshot = table.current();
        List<IpView> ips = new ArrayList<>();
        snapshot.ips().stream().sorted().forEach(ip -> {
            List<Route> routes = snapshot.routes(ip);
            ips.add(new IpView(
                    ip.value(),
                    snapshot.status(ip).map(Enum::name).orElse(null),
                    routes.stream()
                            .map(r -> new BorderView(
                                    r.borderId().value(),
                                    r.status().name(),
                                    snapshot.announcements().get(r.borderId()).generation()))
                            .toList()));
        });
        List<ConflictView> conflicts = new ArrayList<>();
        for (Map.Entry<EgressIp, List<BorderId>> e : snapshot.conflicts().entrySet()) {
            conflicts.add(new ConflictView(
                    e.getKey().value(),
                    e.getValue().stream().map(b -> b.value()).toList()));
        }
        List<RejectedView> rejected = table.latestRejections().stream()
                .map(r -> new RejectedView(
                        r.claimedBorderId() == null ? null : r.claimedBorderId().value(),
                        r.cause().slug(),
                        r.reason()))
                .toList();
        return new IpsView(
                snapshot.generation(),
                table.isReady() ? table.age().toMillis() : null,
                router.strategy(),
                router.sharedStrategy(),
                ips,
                conflicts,
                rejected);
    }

    @Operation(summary = "A tenant's egress IPs (what to allowlist) and whether its webhooks can flow now")
    @GetMapping("/v1/tenants/{id}/egress")
    TenantEgressView tenantEgress(@PathVariable("id") String id, ServerWebExchange exchange) {
        TenantAccess.check(exchange, id); // before the lookup: another tenant's existence is not revealed
        Resolution resolution = router.peek(id);
        if (resolution == null) {
            throw new UnknownTenantException(id.length() > 128 ? id.substring(0, 128) : id);
        }
        boolean dedicated = resolution.tenant().dedicated();
        boolean routable = !router.tooStaleFor(resolution);
        List<TenantIpView> ips = resolution.allowedIps().stream()
                .map(ip -> new TenantIpView(ip.value(), routable && resolution.routes(ip)))
                .toList();
        List<String> destinations = resolution.tenant().destinations().stream()
                .map(Object::toString)
                .toList();
        return new TenantEgressView(id, dedicated, ips.stream().anyMatch(TenantIpView::available), ips, destinations);
    }
}
