package dev.egress.app.routing;

import dev.egress.discovery.Route;
import dev.egress.discovery.select.BorderSelector;
import java.util.List;

/**
 * Interim {@code lowest-border-id} strategy until the shared strategies land in discovery-common:
 * the eligible route with the smallest Border id, first in list order on ties.
 */
final class LowestBorderIdSelector implements BorderSelector {

    @Override
    public Route select(List<Route> candidates, long requestKey) {
        Route best = null;
        for (int i = 0; i < candidates.size(); i++) {
            Route route = candidates.get(i);
            if (route.eligible() && (best == null || route.borderId().compareTo(best.borderId()) < 0)) {
                best = route;
            }
        }
        return best;
    }

    @Override
    public String name() {
        return "lowest-border-id";
    }
}
