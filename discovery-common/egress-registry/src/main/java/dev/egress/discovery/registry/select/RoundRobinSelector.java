package dev.egress.discovery.registry.select;

import dev.egress.discovery.registry.Route;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * Takes the eligible candidates in turn.
 *
 * <p>The turn counter is striped by the identity of the candidate list. With one shared counter, two
 * tenants whose requests happen to alternate would each always see even (or odd) counter values and
 * get stuck on one route. Lists taken straight from a snapshot are the same object for the
 * snapshot's lifetime, so each of them rotates exactly; a list built per request lands on an
 * arbitrary stripe, which still spreads evenly on average.
 */
final class RoundRobinSelector implements BorderSelector {

    /** Number of turn counters; a power of two. */
    static final int STRIPES = 64;

    private final AtomicLongArray turns = new AtomicLongArray(STRIPES);

    @Override
    public @Nullable Route select(List<Route> candidates, long requestKey) {
        int eligible = 0;
        for (int i = 0, n = candidates.size(); i < n; i++) {
            if (candidates.get(i).eligible()) {
                eligible++;
            }
        }
        if (eligible == 0) {
            return null;
        }
        int stripe = System.identityHashCode(candidates) & (STRIPES - 1);
        long turn = turns.getAndIncrement(stripe);
        int target = (int) Math.floorMod(turn, (long) eligible);
        for (int i = 0, n = candidates.size(); i < n; i++) {
            Route route = candidates.get(i);
            if (route.eligible() && target-- == 0) {
                return route;
            }
        }
        // Unreachable: candidates are immutable lists, so the second pass sees what the first counted.
        throw new IllegalStateException("candidates changed during selection");
    }

    @Override
    public String name() {
        return BorderSelectors.ROUND_ROBIN;
    }

    @Override
    public String toString() {
        return name();
    }
}
