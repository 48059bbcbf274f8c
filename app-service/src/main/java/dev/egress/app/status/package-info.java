/**
 * Read-only views of routing state ({@code GET /v1/egress/ips}, {@code GET /v1/tenants/{id}/egress}) and
 * the {@code routing} readiness contributor, all read from the local snapshot.
 */
@NullMarked
package dev.egress.app.status;

import org.jspecify.annotations.NullMarked;
