/**
 * {@code POST /v1/deliveries}: {@code DeliveryController} reads and validates the request and applies
 * {@code Idempotency-Key}; {@code Dispatcher} carries the delivery through selection, the Border's forward
 * call ({@link dev.egress.app.dispatch.BorderClients}, one pool per Border) and the retry rule, under
 * {@code DeliveryAdmission}'s limits.
 */
@NullMarked
package dev.egress.app.dispatch;

import org.jspecify.annotations.NullMarked;
