/**
 * {@code POST /v1/deliveries}: {@code DeliveryController} reads and validates the request and applies
 * {@code Idempotency-Key}; {@code Dispatcher} admits the delivery ({@code DeliveryAdmission}'s limits), hands it to
 * the attempt engine ({@link dev.egress.app.attempts.ForwardAttempts}) and turns the outcome into the answer.
 */
@NullMarked
package dev.egress.app.dispatch;

import org.jspecify.annotations.NullMarked;
