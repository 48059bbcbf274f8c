/**
 * The durable backlog as operators see it: {@link dev.egress.app.delivery.backlog.BacklogSampler} counts what waits
 * in the delivery store on a timer and publishes it as gauges and to the fleet view.
 */
@NullMarked
package dev.egress.app.delivery.backlog;

import org.jspecify.annotations.NullMarked;
