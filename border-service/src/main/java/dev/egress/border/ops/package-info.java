/**
 * The operator API of one Border ({@code GET /ops/v1/ips}, {@code PUT /ops/v1/ips/{ip}}) and App's twin of
 * the change ({@code PUT /internal/v1/ips/{ip}}), both republishing the whole announcement.
 */
@NullMarked
package dev.egress.border.ops;

import org.jspecify.annotations.NullMarked;
