/**
 * Per-Border resilience: one circuit breaker per Border ({@link dev.egress.app.resilience.BorderBreakers}),
 * passive ejection with a hold-down ({@link dev.egress.app.resilience.PassiveHealth}), the retry budget
 * ({@link dev.egress.app.resilience.RetryBudget}) and per-IP traffic
 * ({@link dev.egress.app.resilience.RouteTraffic}), all dropped when a Border leaves the snapshot.
 */
@NullMarked
package dev.egress.app.resilience;

import org.jspecify.annotations.NullMarked;
