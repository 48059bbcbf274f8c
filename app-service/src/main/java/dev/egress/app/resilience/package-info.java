/**
 * Per-Border resilience primitives: one circuit breaker per Border ({@link dev.egress.app.resilience.BorderBreakers}),
 * passive ejection with a hold-down ({@link dev.egress.app.resilience.PassiveHealth}, one
 * {@link dev.egress.app.resilience.Ejection} per Border), per-IP traffic ({@link dev.egress.app.resilience.RouteTraffic},
 * one {@link dev.egress.app.resilience.BorderTraffic} per Border) and the retry budget
 * ({@link dev.egress.app.resilience.RetryBudget}). App's fleet ({@code dev.egress.app.fleet}) creates each Border's
 * pieces when it joins the snapshot and retires them when it leaves.
 */
@NullMarked
package dev.egress.app.resilience;

import org.jspecify.annotations.NullMarked;
