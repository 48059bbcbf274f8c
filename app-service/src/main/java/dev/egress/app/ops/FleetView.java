package dev.egress.app.ops;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The whole fleet as one App sees it right now: what {@code GET /ops/v1/fleet} answers and the operator
 * page draws. Built from local state only (snapshot, tenant policy, breakers, passive health, traffic).
 *
 * @param at                     when the view was built
 * @param generation             routing snapshot generation
 * @param snapshotAgeMillis      time since the registry last confirmed the snapshot; null before the first read
 * @param stale                  whether the snapshot is past {@code egress.routing.max-staleness}
 * @param maxStalenessMillis     the staleness limit
 * @param strategy               the selection strategy
 * @param borders                live Borders, sorted by id
 * @param ips                    every IP that a live Border announces or the tenants file names, sorted
 * @param conflicts              IPs announced by more than one live Border
 * @param rejected               announcements the latest registry read skipped
 * @param tenantsWithoutUsableIp tenants whose webhooks cannot leave right now
 * @param tenantsFile            the tenants file's state
 * @param durable                durable delivery's backlog and dead webhooks per tenant, as the last count found
 *                               them; null when durable delivery is off or before the first count
 */
public record FleetView(
        Instant at,
        long generation,
        Long snapshotAgeMillis,
        boolean stale,
        long maxStalenessMillis,
        String strategy,
        List<Border> borders,
        List<Ip> ips,
        List<Conflict> conflicts,
        List<Rejected> rejected,
        List<TenantWithoutIp> tenantsWithoutUsableIp,
        TenantsFile tenantsFile,
        @Nullable Durable durable) {

    /** Status of an IP that the tenants file names but no live Border announces. */
    public static final String ABSENT = "ABSENT";

    /**
     * A live Border.
     *
     * @param id                    Border id
     * @param endpoint              its advertised URL
     * @param generation            its announcement's generation
     * @param publishedAt           when it published that announcement
     * @param announcementAgeMillis time since that publish
     * @param breaker               App's circuit breaker state for it
     * @param ejected               whether App's passive health ejected it
     * @param ips                   its IPs as announced
     */
    public record Border(
            String id,
            String endpoint,
            long generation,
            Instant publishedAt,
            long announcementAgeMillis,
            String breaker,
            boolean ejected,
            List<BorderIp> ips) {}

    /**
     * One IP as a Border announces it.
     *
     * @param ip     the IP (its public address, as customers allowlist it)
     * @param bind   the address the Border binds for it (equal to {@code ip} without NAT)
     * @param status its status on that Border
     * @param reason why the Border withholds it by itself (such as {@code egress-identity-mismatch}), or null
     */
    public record BorderIp(
            String ip, String bind, String status, @Nullable String reason) {}

    /**
     * One IP across the fleet.
     *
     * @param ip               the IP
     * @param status           best status over its live Borders, or {@code ABSENT}
     * @param conflict         whether more than one live Border announces it
     * @param borders          its routes, by Border id
     * @param dedicatedTenants tenants dedicated to it
     * @param sharedPool       whether it is in the shared pool
     * @param sharedTenants    how many tenants use the shared pool (0 unless {@code sharedPool})
     */
    public record Ip(
            String ip,
            String status,
            boolean conflict,
            List<Route> borders,
            List<String> dedicatedTenants,
            boolean sharedPool,
            int sharedTenants) {}

    /**
     * App's view of one route (the IP through one Border).
     *
     * @param id              the Border
     * @param status          the IP's status on it
     * @param reason          why that Border withholds the IP by itself, or null
     * @param breaker         App's breaker state for the Border
     * @param ejected         whether the Border is ejected by passive health
     * @param inFlight        App's calls in flight through this route (open tunnels included)
     * @param tunnels         forward-proxy tunnels open through this route now
     * @param recentAttempts  attempts through it in the recent window
     * @param recentFailures  those that failed at the Border
     * @param recentErrorRate failed share (0..1)
     */
    public record Route(
            String id,
            String status,
            @Nullable String reason,
            String breaker,
            boolean ejected,
            int inFlight,
            int tunnels,
            long recentAttempts,
            long recentFailures,
            double recentErrorRate) {}

    /**
     * An IP claimed by several Borders.
     *
     * @param ip      the IP
     * @param borders the Borders, sorted (the first wins under {@code lowest-border-id})
     */
    public record Conflict(String ip, List<String> borders) {}

    /**
     * An announcement the snapshot skipped.
     *
     * @param owner  position of the owner in the registry read
     * @param reason the broken rule
     */
    public record Rejected(int owner, String reason) {}

    /**
     * A tenant whose webhooks cannot leave now.
     *
     * @param id        the tenant
     * @param dedicated whether it has dedicated IPs
     * @param reason    {@code no-live-ip} (no allowed IP is ACTIVE on a live Border), {@code ip-conflict} (each
     *                  ACTIVE dedicated IP is announced ACTIVE by two or more live Borders) or {@code routing-stale}
     * @param ips       its allowed IPs
     */
    public record TenantWithoutIp(String id, boolean dedicated, String reason, List<String> ips) {}

    /**
     * The tenants file.
     *
     * @param tenants   tenants in the policy in use
     * @param valid     whether the latest read of the file was valid
     * @param lastError the latest error, null if none
     */
    public record TenantsFile(
            int tenants, boolean valid, @Nullable String lastError) {}

    /**
     * Durable delivery, fleet-wide (the store is shared by every App), as the last count found it.
     *
     * @param countedAt           when it was counted (every {@code egress.delivery.backlog.sample-interval})
     * @param complete            false when the count stopped at {@code egress.delivery.backlog.max-rows}: the numbers
     *                            are lower bounds
     * @param oldestDue           when the longest-waiting due webhook became due, or null when none is due
     * @param oldestDueAgeSeconds how long it had waited when counted, 0 when none
     * @param tenants             per tenant with anything due or dead, sorted by id
     */
    public record Durable(
            Instant countedAt,
            boolean complete,
            @Nullable Instant oldestDue,
            long oldestDueAgeSeconds,
            List<DurableTenant> tenants) {}

    /**
     * One tenant's durable webhooks.
     *
     * @param id   the tenant
     * @param due  due now and not being attempted
     * @param dead dead, kept for replay
     */
    public record DurableTenant(String id, long due, long dead) {}
}
