/**
 * App's operator side ({@code /ops/v1/**}, the page at {@code /ops/}): the whole fleet as this App sees it
 * ({@link dev.egress.app.ops.FleetViews}), IP status changes applied on whichever Border hosts the IP, and
 * the gauges an on-call pages on.
 */
@NullMarked
package dev.egress.app.ops;

import org.jspecify.annotations.NullMarked;
