/**
 * From tenant to route, on local state only: {@link dev.egress.app.routing.EgressRouter} precomputes each
 * tenant's candidates per (policy, snapshot) and applies the selection strategy; its configuration also
 * starts the registry watcher that feeds the routing table.
 */
@NullMarked
package dev.egress.app.routing;

import org.jspecify.annotations.NullMarked;
