/**
 * Durable delivery (issue 35), its pure parts so far: the retry schedule ({@link
 * dev.egress.app.delivery.RetrySchedule}, global {@link dev.egress.app.delivery.RetryProperties} and a tenant's
 * {@code retrySchedule}), a target's {@code Retry-After}, and the rule that turns an attempt's outcome into
 * delivered, retry later or stop ({@link dev.egress.app.delivery.AttemptOutcome}, {@link
 * dev.egress.app.delivery.NextAttempt}), and the store's port ({@link dev.egress.app.delivery.DeliveryStore}, its
 * values and refusals), whose YDB adapter is {@code dev.egress.app.delivery.ydb}; which buckets this App works ({@link
 * dev.egress.app.delivery.OwnedBuckets}, held on a coordination node by {@code dev.egress.app.delivery.buckets}) and
 * the backlog count for operators ({@link dev.egress.app.delivery.Backlog}, sampled by {@code
 * dev.egress.app.delivery.backlog}).
 */
@NullMarked
package dev.egress.app.delivery;

import org.jspecify.annotations.NullMarked;
