package dev.egress.discovery.registry.select;

import dev.egress.discovery.registry.Route;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Shared steps of the hashing strategies. */
final class RouteOrder {

    private RouteOrder() {}

    /**
     * The tie-break, so that a (practically impossible) tie is still deterministic: whether {@code a}
     * wins a tie against {@code b}: smaller Border id, then smaller IP.
     *
     * @param a a route
     * @param b another route
     * @return true if {@code a} goes first
     */
    static boolean before(Route a, Route b) {
        int byBorder = a.borderId().compareTo(b.borderId());
        return byBorder != 0 ? byBorder < 0 : a.ip().compareTo(b.ip()) < 0;
    }

    /**
     * The single eligible candidate, if there is exactly one. Most IPs live on one Border, and then
     * hashing (which reads both ids' text: several cache lines per candidate) cannot change the answer.
     *
     * @param candidates the candidates
     * @return the one eligible route; null if there are none or several
     */
    static @Nullable Route onlyEligible(List<Route> candidates) {
        Route only = null;
        for (int i = 0, n = candidates.size(); i < n; i++) {
            Route route = candidates.get(i);
            if (route.eligible()) {
                if (only != null) {
                    return null;
                }
                only = route;
            }
        }
        return only;
    }
}
