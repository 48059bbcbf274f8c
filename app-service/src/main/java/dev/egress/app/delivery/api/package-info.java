/**
 * Durable delivery's API and wiring: {@code POST /v1/deliveries} with {@code Prefer: respond-async} (stored, then
 * attempted at once by this App's workers), the {@code /v1/deliveries/{id}} family that shows and re-sends stored
 * deliveries, and the configuration that opens the store from {@code egress.delivery.store.*}.
 */
@NullMarked
package dev.egress.app.delivery.api;

import org.jspecify.annotations.NullMarked;
