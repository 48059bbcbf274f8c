package dev.egress.discovery.registry.select;

import dev.egress.discovery.registry.Route;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The default: the eligible route with the lexicographically smallest Border id. Deterministic, so every App
 * picks the same Border for an IP that two Borders briefly announce (docs/architecture.md,
 * "The registry protocol").
 */
final class LowestBorderIdSelector implements BorderSelector {

    @Override
    public @Nullable Route select(List<Route> candidates, long requestKey) {
        Route best = null;
        // Indexed loop: an iterator would be an allocation per call.
        for (int i = 0, n = candidates.size(); i < n; i++) {
            Route route = candidates.get(i);
            if (route.eligible() && (best == null || route.borderId().compareTo(best.borderId()) < 0)) {
                best = route;
            }
        }
        return best;
    }

    @Override
    public String name() {
        return BorderSelectors.LOWEST_BORDER_ID;
    }

    @Override
    public String toString() {
        return name();
    }
}
