/**
 * App's forward call, {@code POST /internal/v1/egress}, from check to answer, and the Border's one gate for
 * forwards and tunnels: {@code EgressGate} (deadline, hosted, input, draining, ACTIVE, SSRF, a place in
 * {@code Admission} held as a {@code Permit}), {@code GateMetrics} (both kinds' meters), {@code ForwardController}
 * and {@code EgressService} (the forward's input, then send), {@code BoundClients} (one client bound to each
 * dedicated IP) and {@code BorderLifecycle} (register on start; on SIGTERM one drain for both kinds).
 */
@NullMarked
package dev.egress.border.egress;

import org.jspecify.annotations.NullMarked;
