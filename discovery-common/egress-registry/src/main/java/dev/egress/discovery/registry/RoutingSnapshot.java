package dev.egress.discovery.registry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Immutable map {@code IP -> [Route]} built from the registry's owner payloads. Everything the request
 * path needs is precomputed: per IP the routes sorted by Border id, and the eligible (ACTIVE) ones.
 * Malformed payloads are skipped and counted; IPs claimed by more than one Border (announced, whatever the
 * status, and not released: {@link AnnouncedIp#claims()}) are kept and reported as conflicts.
 */
public final class RoutingSnapshot {

    private static final RoutingSnapshot EMPTY =
            new RoutingSnapshot(Map.of(), Map.of(), Map.of(), Map.of(), Set.of(), List.of(), 0, Instant.EPOCH);

    private final Map<BorderId, Announcement> announcements;
    // Plain HashMaps, never changed after the build and never handed out: the final fields publish
    // them safely to every reader thread, and lookups skip an unmodifiable wrapper's indirection.
    private final Map<EgressIp, List<Route>> routesByIp;
    private final Map<EgressIp, List<Route>> eligibleByIp;
    private final Map<EgressIp, List<BorderId>> conflicts;
    private final Set<BorderId> duplicateBorders;
    private final List<Rejection> rejections;
    private final long generation;
    private final Instant builtAt;

    /**
     * A payload the snapshot skipped: never routed on, and never able to replace or shadow a verified
     * announcement of the Border it claims to be.
     *
     * @param index           position of the payload in the input list (lets the caller name the owner)
     * @param reason          the broken rule, in detail; it quotes the payload, so it is kept escaped for
     *                        logs ({@link LogText#escape}): one line, bounded length
     * @param cause           the class of failure
     * @param claimedBorderId the Border id the payload claims (unverified, for display), or null
     */
    public record Rejection(
            int index,
            String reason,
            RejectionReason cause,
            @Nullable BorderId claimedBorderId) {

        /** Escapes the reason once, here, so that every log and status view shows the safe form. */
        public Rejection {
            reason = LogText.escape(reason);
        }
    }

    private RoutingSnapshot(
            Map<BorderId, Announcement> announcements,
            Map<EgressIp, List<Route>> routesByIp,
            Map<EgressIp, List<Route>> eligibleByIp,
            Map<EgressIp, List<BorderId>> conflicts,
            Set<BorderId> duplicateBorders,
            List<Rejection> rejections,
            long generation,
            Instant builtAt) {
        this.announcements = announcements;
        this.routesByIp = routesByIp;
        this.eligibleByIp = eligibleByIp;
        this.conflicts = conflicts;
        this.duplicateBorders = duplicateBorders;
        this.rejections = rejections;
        this.generation = generation;
        this.builtAt = builtAt;
    }

    /**
     * The snapshot before anything was read. It stands for "nothing known yet", not for an empty
     * registry: {@link RoutingTable#offer} refuses it; build an empty registry's snapshot with
     * {@code fromPayloads(List.of(), codec, now)}.
     *
     * @return an empty snapshot of generation 0
     */
    public static RoutingSnapshot empty() {
        return EMPTY;
    }

    /**
     * Builds a snapshot from raw owner payloads. Never fails: malformed payloads become rejections.
     *
     * @param payloads owner data in registry order
     * @param codec    the payload codec
     * @param builtAt  the build time
     * @return the snapshot (generation 0; {@link RoutingTable} assigns generations)
     */
    public static RoutingSnapshot fromPayloads(List<byte[]> payloads, AnnouncementCodec codec, Instant builtAt) {
        return fromPayloads(
                payloads,
                data -> {
                    try {
                        return codec.decode(data);
                    } catch (InvalidAnnouncementException e) {
                        throw new RejectedAnnouncementException(RejectionReason.MALFORMED, e.getMessage(), null);
                    }
                },
                builtAt);
    }

    /**
     * Builds a snapshot from raw owner payloads, each read (and verified) by {@code reader}. Never
     * fails: refused payloads become rejections and take no part in the build, so a forged payload
     * naming a real Border cannot replace or shadow that Border's verified announcement.
     *
     * @param payloads owner data in registry order
     * @param reader   decodes and verifies one payload
     * @param builtAt  the build time
     * @return the snapshot (generation 0; {@link RoutingTable} assigns generations)
     */
    public static RoutingSnapshot fromPayloads(List<byte[]> payloads, AnnouncementReader reader, Instant builtAt) {
        List<Announcement> decoded = new ArrayList<>(payloads.size());
        List<Rejection> rejections = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            try {
                decoded.add(reader.read(payloads.get(i)));
            } catch (RejectedAnnouncementException e) {
                rejections.add(new Rejection(i, e.detail(), e.reason(), e.claimedBorderId()));
            } catch (RuntimeException e) {
                // The codec should only throw the typed error, but one bad owner must never fail the
                // whole build: anything else is a rejection too.
                rejections.add(new Rejection(i, "payload: unreadable (" + e + ")", RejectionReason.MALFORMED, null));
            }
        }
        return build(decoded, rejections, builtAt);
    }

    /**
     * Builds a snapshot from decoded announcements.
     *
     * @param announcements one per live Border (a Border announced twice keeps its newest announcement)
     * @param builtAt       the build time
     * @return the snapshot
     */
    public static RoutingSnapshot fromAnnouncements(Collection<Announcement> announcements, Instant builtAt) {
        return build(announcements, List.of(), builtAt);
    }

    private static RoutingSnapshot build(Collection<Announcement> input, List<Rejection> rejections, Instant builtAt) {
        // A Border that restarted may briefly hold two slots (the old session has not expired yet):
        // the newest publish wins, generation breaks ties.
        Map<BorderId, Announcement> byBorder = new TreeMap<>();
        Set<BorderId> duplicates = new TreeSet<>();
        for (Announcement a : input) {
            Announcement previous = byBorder.putIfAbsent(a.borderId(), a);
            if (previous != null) {
                duplicates.add(a.borderId());
                byBorder.put(a.borderId(), newer(previous, a));
            }
        }
        int ipCount = 0;
        for (Announcement a : byBorder.values()) {
            ipCount += a.ips().size();
        }
        // Sized up front: a build of 1,000 Borders x 8 IPs would otherwise rehash several times.
        Map<EgressIp, List<Route>> routes = new HashMap<>(capacityFor(ipCount));
        Map<EgressIp, List<BorderId>> claims = new HashMap<>(capacityFor(ipCount));
        for (Announcement a : byBorder.values()) {
            for (AnnouncedIp ip : a.ips()) {
                routes.computeIfAbsent(ip.ip(), k -> new ArrayList<>(1))
                        .add(new Route(ip.ip(), a.borderId(), a.endpoint(), ip.status(), ip.bind()));
                if (ip.claims()) {
                    claims.computeIfAbsent(ip.ip(), k -> new ArrayList<>(1)).add(a.borderId());
                }
            }
        }
        Map<EgressIp, List<Route>> routesByIp = new HashMap<>(capacityFor(routes.size()));
        Map<EgressIp, List<Route>> eligibleByIp = new HashMap<>(capacityFor(routes.size()));
        Map<EgressIp, List<BorderId>> conflicts = new TreeMap<>();
        for (Map.Entry<EgressIp, List<Route>> e : routes.entrySet()) {
            // Already sorted by Border id: Borders were visited in TreeMap order and announce an IP once.
            List<Route> all = List.copyOf(e.getValue());
            routesByIp.put(e.getKey(), all);
            eligibleByIp.put(e.getKey(), eligibleOf(all));
            List<BorderId> claimants = claims.getOrDefault(e.getKey(), List.of());
            if (claimants.size() > 1) {
                conflicts.put(e.getKey(), List.copyOf(claimants)); // sorted: Borders were visited in id order
            }
        }
        return new RoutingSnapshot(
                Collections.unmodifiableMap(byBorder),
                routesByIp,
                eligibleByIp,
                Collections.unmodifiableMap(conflicts),
                Collections.unmodifiableSet(duplicates),
                List.copyOf(rejections),
                0,
                builtAt);
    }

    /** The ACTIVE routes; the same list when all are, one shared empty list when none is. */
    private static List<Route> eligibleOf(List<Route> all) {
        int eligible = 0;
        for (Route route : all) {
            eligible += route.eligible() ? 1 : 0;
        }
        if (eligible == all.size()) {
            return all;
        }
        return eligible == 0 ? List.of() : all.stream().filter(Route::eligible).toList();
    }

    private static int capacityFor(int entries) {
        return (int) (entries / 0.75f) + 1;
    }

    /**
     * The announcement to keep when one Border holds two slots. Publish time first: generations restart
     * at 0 when a Border restarts, so a restarted Border's first publish has a lower generation than
     * its old session's last one. The remaining tie-breaks only make the result independent of the
     * registry's owner order.
     */
    private static Announcement newer(Announcement a, Announcement b) {
        int byTime = a.publishedAt().compareTo(b.publishedAt());
        if (byTime != 0) {
            return byTime > 0 ? a : b;
        }
        if (a.generation() != b.generation()) {
            return a.generation() > b.generation() ? a : b;
        }
        return a.toString().compareTo(b.toString()) >= 0 ? a : b;
    }

    /**
     * This content under another generation number.
     *
     * @param newGeneration the generation
     * @return a snapshot sharing all content
     */
    public RoutingSnapshot withGeneration(long newGeneration) {
        return new RoutingSnapshot(
                announcements,
                routesByIp,
                eligibleByIp,
                conflicts,
                duplicateBorders,
                rejections,
                newGeneration,
                builtAt);
    }

    /**
     * All routes through one IP, sorted by Border id, whatever their status.
     *
     * @param ip the IP
     * @return the routes; empty if no live Border announces the IP
     */
    public List<Route> routes(EgressIp ip) {
        return routesByIp.getOrDefault(ip, List.of());
    }

    /**
     * The routes through one IP that take new traffic (ACTIVE), sorted by Border id. No allocation.
     *
     * @param ip the IP
     * @return the eligible routes; empty if none
     */
    public List<Route> eligibleRoutes(EgressIp ip) {
        List<Route> eligible = eligibleByIp.get(ip);
        return eligible == null ? List.of() : eligible;
    }

    /**
     * The eligible routes through any of several IPs (e.g. a tenant's dedicated IPs), IP by IP in the
     * given order, each IP's routes by Border id. Allocates for more than one IP: compute it once per
     * tenant and snapshot (for instance in a {@link RoutingTable} listener), not per request.
     *
     * @param ips the IPs; duplicates are ignored
     * @return the eligible routes; the very list of {@link #eligibleRoutes(EgressIp)} for a single IP
     */
    public List<Route> eligibleRoutes(Collection<EgressIp> ips) {
        if (ips.size() == 1) {
            return eligibleRoutes(ips.iterator().next());
        }
        List<Route> routes = new ArrayList<>();
        for (EgressIp ip : new LinkedHashSet<>(ips)) {
            routes.addAll(eligibleRoutes(ip));
        }
        return List.copyOf(routes);
    }

    /**
     * The best status of an IP over its live Borders.
     *
     * @param ip the IP
     * @return the status, empty if no live Border announces it
     */
    public Optional<IpStatus> status(EgressIp ip) {
        IpStatus best = null;
        for (Route route : routes(ip)) {
            best = best == null ? route.status() : best.best(route.status());
        }
        return Optional.ofNullable(best);
    }

    /**
     * Every IP that at least one live Border announces.
     *
     * @return the IPs (unordered)
     */
    public Collection<EgressIp> ips() {
        return Collections.unmodifiableSet(routesByIp.keySet());
    }

    /**
     * The live Borders' announcements.
     *
     * @return Border id to its announcement, sorted by id; unmodifiable
     */
    public Map<BorderId, Announcement> announcements() {
        return announcements;
    }

    /**
     * IPs claimed by more than one live Border, whatever the statuses (computed once, at build time). An IP
     * a Border announces as released ({@link AnnouncedIp#claims()}) is no claim of that Border.
     *
     * @return IP to the Borders announcing it, both sorted; unmodifiable
     */
    public Map<EgressIp, List<BorderId>> conflicts() {
        return conflicts;
    }

    /**
     * Borders that held more than one slot in the read (typically a restarted Border whose old
     * session has not expired yet); only the newest announcement of each was kept.
     *
     * @return the Border ids, sorted; unmodifiable
     */
    public Set<BorderId> duplicateBorders() {
        return duplicateBorders;
    }

    /**
     * Whether no live Border announces anything.
     *
     * @return true when there are no announcements
     */
    public boolean isEmpty() {
        return announcements.isEmpty();
    }

    /**
     * Payloads skipped while building. They do not count as content: a read whose only change is a
     * new rejection causes no swap, so a watcher reports rejections from each snapshot it builds, not
     * from {@link RoutingTable#current()}.
     *
     * @return the rejections
     */
    public List<Rejection> rejections() {
        return rejections;
    }

    /**
     * The generation assigned by the routing table (0 before the first swap).
     *
     * @return the generation
     */
    public long generation() {
        return generation;
    }

    /**
     * When the content was read from the registry and built.
     *
     * @return the build time
     */
    public Instant builtAt() {
        return builtAt;
    }

    /**
     * Whether two snapshots hold the same announcements (every field, generation included). Generation
     * numbers of the snapshots and rejections do not count, so a poll that reads what the last read
     * read causes no swap, while any republish does.
     *
     * @param other another snapshot
     * @return true if the content is the same
     */
    public boolean sameContentAs(RoutingSnapshot other) {
        return other == this || announcements.equals(other.announcements);
    }

    @Override
    public String toString() {
        return "RoutingSnapshot{generation=%d, borders=%s, ips=%d, rejected=%d}"
                .formatted(generation, announcements.keySet(), routesByIp.size(), rejections.size());
    }
}
