/**
 * App's fleet of Borders: one {@link dev.egress.app.fleet.BorderFleet} holds a
 * {@link dev.egress.app.fleet.BorderHandle} per live Border — its link (connection pool, client, TLS identity
 * check, PING liveness), its circuit breaker, its ejection state and its per-IP traffic — created and retired by
 * one routing-table listener. The forward call ({@code dispatch}), the fleet view and the IP changes
 * ({@code ops}) read the same handles. The resilience primitives themselves live in {@code resilience}.
 */
@NullMarked
package dev.egress.app.fleet;

import org.jspecify.annotations.NullMarked;
