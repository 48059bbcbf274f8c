package dev.egress.discovery.registry.select;

import dev.egress.discovery.registry.Route;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Highest random weight (rendezvous) hashing on the request key: each key goes to the eligible
 * route with the highest score for it. A key keeps its route while that route stays eligible, and
 * when a Border leaves only the keys it carried move, spread over the rest. Stateless.
 */
final class RendezvousSelector implements BorderSelector {

    @Override
    public @Nullable Route select(List<Route> candidates, long requestKey) {
        Route only = RouteOrder.onlyEligible(candidates);
        if (only != null) {
            return only;
        }
        long key = RouteHash.mix(requestKey);
        Route best = null;
        long bestScore = 0;
        for (int i = 0, n = candidates.size(); i < n; i++) {
            Route route = candidates.get(i);
            if (!route.eligible()) {
                continue;
            }
            long score = RouteHash.score(route, key);
            if (best == null
                    || Long.compareUnsigned(score, bestScore) > 0
                    || (score == bestScore && RouteOrder.before(route, best))) {
                best = route;
                bestScore = score;
            }
        }
        return best;
    }

    @Override
    public String name() {
        return BorderSelectors.RENDEZVOUS;
    }

    @Override
    public String toString() {
        return name();
    }
}
