package dev.egress.app.routing;

import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.RoutingSnapshot;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The claims of each IP that still stand, including those of Borders that hold no slot right now. A snapshot
 * sees only live Borders, so an owner between a restart's exit and its next registration, or after a crash,
 * would leave a second claimant alone in it, and that claimant would take a dedicated tenant's traffic. Here a
 * claim stands until its Border is seen live without it: the Border announces the IP released (an operator's
 * move), or no longer announces it (an operator took it out of its configuration). Both are an operator's
 * hand; a Border's absence is not. Two standing claims of one IP are a conflict ({@link #conflicts()}).
 *
 * <p>The memory starts with the first snapshot this App reads. With durable delivery on it is also stored, in a
 * table every App reads and writes ({@link ClaimsSync}): {@link #stored} takes the absent Borders' claims from it,
 * so an App that starts while an owner is absent learns that owner's claim, and an operator's move through any App
 * ends it everywhere. Without the table the memory is this process's alone. An operator's move through this App
 * ({@link #moved}) ends every other claim of the IP at once, an absent owner's included. Immutable; {@link
 * EgressRouter} keeps the current one.
 */
final class StandingClaims {

    private static final StandingClaims NONE = new StandingClaims(Map.of(), Map.of());

    private final Map<EgressIp, Set<BorderId>> byIp;
    private final Map<EgressIp, List<BorderId>> conflicts;

    private StandingClaims(Map<EgressIp, Set<BorderId>> byIp, Map<EgressIp, List<BorderId>> conflicts) {
        this.byIp = byIp;
        this.conflicts = conflicts;
    }

    /**
     * No claim known yet.
     *
     * @return the empty memory
     */
    static StandingClaims none() {
        return NONE;
    }

    /**
     * The claims after a snapshot: every live claim stands; a remembered claim ends only when its Border is live
     * and does not claim the IP.
     *
     * @param snapshot the snapshot read now
     * @return the claims that stand; this when nothing changed
     */
    StandingClaims after(RoutingSnapshot snapshot) {
        Map<BorderId, Announcement> live = snapshot.announcements();
        Map<EgressIp, Set<BorderId>> next = new HashMap<>(byIp.size() * 2 + 16);
        byIp.forEach((ip, borders) -> {
            Set<BorderId> standing = new TreeSet<>();
            for (BorderId border : borders) {
                Announcement announcement = live.get(border);
                if (announcement == null || claims(announcement, ip)) {
                    standing.add(border);
                }
            }
            if (!standing.isEmpty()) {
                next.put(ip, standing);
            }
        });
        for (Announcement announcement : live.values()) {
            for (AnnouncedIp announced : announcement.ips()) {
                if (announced.claims()) {
                    next.computeIfAbsent(announced.ip(), k -> new TreeSet<>()).add(announcement.borderId());
                }
            }
        }
        return next.equals(byIp) ? this : of(next);
    }

    /**
     * The claims after a read of the claims table. Live Borders' claims come from the snapshot, as they stand here
     * already; the claims of Borders absent from it become the table's rows (a claim another App stored is learnt, one
     * an operator's move on any App removed ends), plus those of this App's absent claims that the table never knew
     * ({@code known}), which the next write stores. A claim the table had and lost is not brought back.
     *
     * @param rows     the table as read now
     * @param known    what the table held or was given before this read: the previous read and this App's writes
     * @param snapshot the snapshot these claims follow
     * @return the claims; this when nothing changed
     */
    StandingClaims stored(Set<Claim> rows, Set<Claim> known, RoutingSnapshot snapshot) {
        Map<BorderId, Announcement> live = snapshot.announcements();
        Map<EgressIp, Set<BorderId>> next = new HashMap<>(byIp.size() * 2 + 16);
        byIp.forEach((ip, borders) -> {
            for (BorderId border : borders) {
                Claim claim = new Claim(ip, border);
                if (live.containsKey(border) || rows.contains(claim) || !known.contains(claim)) {
                    next.computeIfAbsent(ip, k -> new TreeSet<>()).add(border);
                }
            }
        });
        for (Claim row : rows) {
            if (!live.containsKey(row.border())) {
                next.computeIfAbsent(row.ip(), k -> new TreeSet<>()).add(row.border());
            }
        }
        return next.equals(byIp) ? this : of(next);
    }

    /**
     * Every standing claim, live or not.
     *
     * @return the claims
     */
    Set<Claim> all() {
        Set<Claim> all = new HashSet<>();
        byIp.forEach((ip, borders) -> borders.forEach(border -> all.add(new Claim(ip, border))));
        return all;
    }

    /**
     * The claims an operator took off a live Border: it announces the IP released, or no longer at all.
     *
     * @param candidates claims to check
     * @param snapshot   the snapshot read now
     * @return those whose Border is live in the snapshot without claiming the IP
     */
    static List<Claim> takenOff(Collection<Claim> candidates, RoutingSnapshot snapshot) {
        Map<BorderId, Announcement> live = snapshot.announcements();
        List<Claim> taken = new ArrayList<>();
        for (Claim claim : candidates) {
            Announcement announcement = live.get(claim.border());
            if (announcement != null && !claims(announcement, claim.ip())) {
                taken.add(claim);
            }
        }
        return taken;
    }

    /**
     * The claims after an operator moved an IP to a Border through this App: that Border's claim is the only one
     * that stands, whether or not the other claimants are live.
     *
     * @param ip the IP
     * @param to its owner from now on
     * @return the claims
     */
    StandingClaims moved(EgressIp ip, BorderId to) {
        Map<EgressIp, Set<BorderId>> next = new HashMap<>(byIp);
        next.put(ip, new TreeSet<>(Set.of(to)));
        return of(next);
    }

    /**
     * IPs with more than one standing claim, live or not.
     *
     * @return IP to the claimants, both sorted; unmodifiable
     */
    Map<EgressIp, List<BorderId>> conflicts() {
        return conflicts;
    }

    private static boolean claims(Announcement announcement, EgressIp ip) {
        for (AnnouncedIp announced : announcement.ips()) {
            if (announced.ip().equals(ip)) {
                return announced.claims();
            }
        }
        return false;
    }

    private static StandingClaims of(Map<EgressIp, Set<BorderId>> byIp) {
        Map<EgressIp, Set<BorderId>> frozen = new HashMap<>(byIp.size() * 2 + 1);
        Map<EgressIp, List<BorderId>> conflicts = new TreeMap<>();
        byIp.forEach((ip, borders) -> {
            frozen.put(ip, Collections.unmodifiableSet(new TreeSet<>(borders)));
            if (borders.size() > 1) {
                conflicts.put(ip, List.copyOf(new TreeSet<>(borders)));
            }
        });
        return new StandingClaims(frozen, Collections.unmodifiableMap(conflicts));
    }
}
