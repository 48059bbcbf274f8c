/**
 * From tenant to route, on local state only: {@link dev.egress.app.routing.EgressRouter} precomputes each
 * tenant's candidates per (policy, snapshot) and applies the selection strategy; its configuration also
 * starts the registry watcher that feeds the routing table, and {@link dev.egress.app.routing.ClaimsSync}, which
 * keeps the standing claims of IPs in step with the claims table ({@link dev.egress.app.routing.ClaimRecords}, the
 * port durable delivery's store implements) when there is one.
 */
@NullMarked
package dev.egress.app.routing;

import org.jspecify.annotations.NullMarked;
