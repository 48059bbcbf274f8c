package dev.egress.discovery.registry.select;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.Route;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Weighted rendezvous hashing: each eligible route scores {@code -weight / ln(u)}, with {@code u} the
 * route's rendezvous hash for the key mapped into (0, 1), and the highest score wins. A route then
 * takes a share of the key space proportional to its Border's weight (Resch, "Weighted rendezvous
 * hashing"; also used by Apache Commons' and Twitter's HRW).
 *
 * <p>Why this over smooth weighted round-robin: it needs no mutable per-candidate-set state (the
 * candidate list differs per tenant and per snapshot), so it is thread-safe without locks and allocates
 * nothing; a key keeps its Border, which keeps the Border's pooled keep-alive connections to that destination
 * in use (docs/architecture.md, "Bound sockets and connection reuse"); and changing one weight or losing one
 * Border moves only the keys that must move. The share is over keys, not requests: a caller that wants
 * per-request spreading passes a per-request random key. With every weight equal it picks exactly what
 * {@code rendezvous} picks, since the score is then monotonic in the same hash.
 */
final class WeightedRendezvousSelector implements BorderSelector {

    private final Map<BorderId, Integer> weights;

    /**
     * Creates the selector.
     *
     * @param weights validated weights (each &gt; 0); Borders not listed weigh 1
     */
    WeightedRendezvousSelector(Map<BorderId, Integer> weights) {
        this.weights = Map.copyOf(weights);
    }

    @Override
    public @Nullable Route select(List<Route> candidates, long requestKey) {
        Route only = RouteOrder.onlyEligible(candidates);
        if (only != null) {
            return only;
        }
        long key = RouteHash.mix(requestKey);
        Route best = null;
        double bestScore = 0;
        for (int i = 0, n = candidates.size(); i < n; i++) {
            Route route = candidates.get(i);
            if (!route.eligible()) {
                continue;
            }
            // ln(u) < 0 for u in (0, 1), so the score is positive and grows with both weight and u.
            double score = -weight(route.borderId()) / Math.log(RouteHash.unit(RouteHash.score(route, key)));
            if (best == null || score > bestScore || (score == bestScore && RouteOrder.before(route, best))) {
                best = route;
                bestScore = score;
            }
        }
        return best;
    }

    private int weight(BorderId borderId) {
        Integer weight = weights.get(borderId);
        return weight == null ? 1 : weight;
    }

    /**
     * The configured weights.
     *
     * @return Border id to weight; unlisted Borders weigh 1
     */
    Map<BorderId, Integer> weights() {
        return weights;
    }

    @Override
    public String name() {
        return BorderSelectors.WEIGHTED;
    }

    @Override
    public String toString() {
        return name() + weights;
    }
}
