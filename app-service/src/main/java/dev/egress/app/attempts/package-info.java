/**
 * The one attempt engine: {@code AttemptLoop} chooses a route with its Border's handle, takes the breaker's permit,
 * runs one {@code Attempt}, accounts it and retries only when the target was certainly not contacted, within
 * {@code AttemptPolicy} and the retry budget. {@code ForwardAttempts} delivers a {@code Webhook} through it (the
 * forward call, {@code ForwardCall}, held to the route's source IP); the proxy's tunnels run their connect through
 * it too. Results are values ({@code AttemptResult}, {@code AttemptOutcome}); {@code AttemptProblems} maps a last
 * attempt to the caller's problem.
 */
@NullMarked
package dev.egress.app.attempts;

import org.jspecify.annotations.NullMarked;
