package dev.egress.discovery.registry.select;

import dev.egress.discovery.registry.Route;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Picks one route among the candidates for a delivery. Implementations skip routes that are not
 * eligible (not ACTIVE), allocate nothing per call, and are thread-safe. Obtain one with
 * {@link BorderSelectors#byName}.
 *
 * <p>Candidates are read by index, so pass random-access lists: the lists of
 * {@link dev.egress.discovery.registry.RoutingSnapshot#eligibleRoutes} are, and passing them as they are
 * (rather than a copy per request) also lets {@code round-robin} rotate exactly per IP.
 */
public interface BorderSelector {

    /**
     * Selects a route.
     *
     * @param candidates routes through the tenant's allowed IPs (any status; ineligible ones are skipped)
     * @param requestKey a hash of what identifies the delivery (e.g. tenant and URL); strategies that
     *                   need stability use it, others ignore it
     * @return the chosen route, or {@code null} if no candidate is eligible
     */
    @Nullable
    Route select(List<Route> candidates, long requestKey);

    /**
     * The strategy's configuration name.
     *
     * @return e.g. {@code lowest-border-id}
     */
    String name();
}
