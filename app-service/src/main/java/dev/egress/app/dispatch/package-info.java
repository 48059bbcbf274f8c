/**
 * {@code POST /v1/deliveries}: {@code DeliveryController} reads and validates the request and applies
 * {@code Idempotency-Key}; {@code Dispatcher} carries the delivery through selection, the Border's forward
 * call ({@code ForwardCall}, over the chosen Border's handle in {@link dev.egress.app.fleet.BorderFleet}) and
 * the retry rule, under {@code DeliveryAdmission}'s limits.
 */
@NullMarked
package dev.egress.app.dispatch;

import org.jspecify.annotations.NullMarked;
