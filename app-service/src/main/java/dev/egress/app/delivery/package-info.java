/**
 * Durable delivery (issue 35), its pure parts so far: the retry schedule ({@link
 * dev.egress.app.delivery.RetrySchedule}, global {@link dev.egress.app.delivery.RetryProperties} and a tenant's
 * {@code retrySchedule}), a target's {@code Retry-After}, and the rule that turns an attempt's outcome into
 * delivered, retry later or stop ({@link dev.egress.app.delivery.AttemptOutcome}, {@link
 * dev.egress.app.delivery.NextAttempt}), and the store's port ({@link dev.egress.app.delivery.DeliveryStore}, its
 * values and refusals), whose YDB adapter is {@code dev.egress.app.delivery.ydb}. The workers come next.
 */
@NullMarked
package dev.egress.app.delivery;

import org.jspecify.annotations.NullMarked;
