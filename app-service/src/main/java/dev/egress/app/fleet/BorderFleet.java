package dev.egress.app.fleet;

import dev.egress.app.resilience.BorderBreakers;
import dev.egress.app.resilience.PassiveHealth;
import dev.egress.app.resilience.RouteTraffic;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.registry.RoutingSnapshot;
import java.net.URI;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every per-Border handle App holds ({@link BorderHandle}: link, breaker, ejection, traffic), in one map that
 * follows the routing snapshot through one listener ({@link #follow}). The map is one immutable value swapped
 * wholesale, so the call path reads it without a lock. A Border that joins gets its pieces in this order:
 * breaker, ejection, traffic (its link opens on the first call). A Border that leaves is retired in this
 * order: out of the map first (no new attempt gets it), then its link (no new call; its connections close once
 * the calls in flight end), its breaker (removed from the registry: a Border that comes back starts closed),
 * its ejection, and its traffic with its meters. A Border that moves to another endpoint keeps its breaker,
 * ejection and traffic and gets a new link; the old one is retired as above.
 */
public final class BorderFleet implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BorderFleet.class);

    private final LinkFactory links;
    private final BorderBreakers breakers;
    private final PassiveHealth health;
    private final RouteTraffic traffic;
    private volatile Map<BorderId, BorderHandle> handles = Map.of();

    BorderFleet(LinkFactory links, BorderBreakers breakers, PassiveHealth health, RouteTraffic traffic) {
        this.links = links;
        this.breakers = breakers;
        this.health = health;
        this.traffic = traffic;
    }

    /**
     * Follows a new snapshot: retires the handles of Borders that left or moved, then creates those of Borders
     * that joined or moved. The one routing-table listener of per-Border state.
     *
     * @param snapshot the new snapshot
     */
    public synchronized void follow(RoutingSnapshot snapshot) {
        Map<BorderId, BorderHandle> before = handles;
        Map<BorderId, BorderHandle> after = new HashMap<>();
        for (Announcement announcement : snapshot.announcements().values()) {
            BorderHandle kept = before.get(announcement.borderId());
            URI endpoint = announcement.endpoint();
            if (kept == null) {
                after.put(announcement.borderId(), join(announcement.borderId(), endpoint));
            } else if (kept.endpoint().equals(endpoint)) {
                after.put(announcement.borderId(), kept);
            } else {
                after.put(announcement.borderId(), kept.movedTo(endpoint));
            }
        }
        handles = Map.copyOf(after);
        for (BorderHandle old : before.values()) {
            BorderHandle now = after.get(old.id());
            if (now == null) {
                leave(old);
            } else if (now != old) {
                old.retireLink();
                log.info(
                        "Border {} moved to {}: closing the connections to {} once its calls end",
                        old.id(),
                        now.endpoint(),
                        old.endpoint());
            }
        }
    }

    /**
     * Follows the current snapshot, read under the fleet's lock: called once the listener is registered, so a
     * snapshot the listener delivers concurrently is followed either before (and read again here, a no-op) or
     * after this one; never an older one after a newer.
     *
     * @param current the routing table's current snapshot
     */
    public synchronized void catchUp(Supplier<RoutingSnapshot> current) {
        follow(current.get());
    }

    private BorderHandle join(BorderId id, URI endpoint) {
        return new BorderHandle(id, endpoint, breakers.of(id), health.track(id), traffic.track(id), links);
    }

    private void leave(BorderHandle handle) {
        handle.retireLink();
        log.info("Closing connections to {} once its calls in flight end: no live Border announces it", handle);
        breakers.remove(handle.breaker());
        handle.ejection().forget();
        handle.traffic().close();
    }

    /** A route with its Border's handle, read from one state of the fleet; the handle is null when it left. */
    public record Candidate(Route route, @Nullable BorderHandle handle) {}

    /** Chooses a route, preferring Borders that take traffic. */
    @FunctionalInterface
    public interface RouteChoice {
        /**
         * Chooses.
         *
         * @param takesTraffic whether a Border is neither ejected nor behind an open breaker
         * @return the route, or null when none is left
         */
        @Nullable
        Route choose(Predicate<BorderId> takesTraffic);
    }

    /**
     * Chooses a route and returns it with its Border's handle, both from one read of the fleet: the health the
     * choice saw and the handle the attempt uses cannot come from two different snapshots.
     *
     * @param choice the choice among candidates (the router's strategy)
     * @return the route and its handle (null when the Border left or moved), or null when nothing is left
     */
    public @Nullable Candidate choose(RouteChoice choice) {
        Map<BorderId, BorderHandle> now = handles;
        Route route = choice.choose(border -> {
            BorderHandle handle = now.get(border);
            return handle == null || handle.takesTraffic();
        });
        if (route == null) {
            return null;
        }
        BorderHandle handle = now.get(route.borderId());
        return new Candidate(route, handle != null && handle.endpoint().equals(route.endpoint()) ? handle : null);
    }

    /**
     * The handle of a route's Border, if that Border is live at the route's endpoint.
     *
     * @param route a route of the current (or a recent) snapshot
     * @return the handle; null when the Border left the snapshot or now announces another endpoint
     */
    public @Nullable BorderHandle handle(Route route) {
        BorderHandle handle = handles.get(route.borderId());
        return handle != null && handle.endpoint().equals(route.endpoint()) ? handle : null;
    }

    /**
     * The handle of a live Border.
     *
     * @param border the Border
     * @return its handle; null when it is not in the snapshot
     */
    public @Nullable BorderHandle handle(BorderId border) {
        return handles.get(border);
    }

    /**
     * Whether selection should prefer a Border: not ejected, breaker not open. A Border without a handle
     * counts as healthy; the attempt then finds it gone and moves on without sending.
     *
     * @param border the Border
     * @return false while it is ejected or its breaker is open
     */
    public boolean takesTraffic(BorderId border) {
        BorderHandle handle = handles.get(border);
        return handle == null || handle.takesTraffic();
    }

    /**
     * Why an endpoint cannot be called with the configured trust.
     *
     * @param endpoint a Border endpoint
     * @return the reason, or null when it can be verified
     */
    public @Nullable String unverifiable(URI endpoint) {
        return links.unverifiable(endpoint);
    }

    /**
     * The live Borders' handles.
     *
     * @return the handles, in no order
     */
    public Collection<BorderHandle> handles() {
        return handles.values();
    }

    @Override
    public synchronized void close() {
        handles.values().forEach(BorderHandle::closeNow);
        handles = Map.of();
    }
}
