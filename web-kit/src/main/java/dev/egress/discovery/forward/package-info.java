/**
 * The wire contract of App's forward call to a Border ({@code POST /internal/v1/egress}):
 * {@link dev.egress.discovery.forward.ForwardRequest}, {@link dev.egress.discovery.forward.ForwardResponse},
 * and the one header rule both services check ({@link dev.egress.discovery.forward.HeaderFields}). The
 * problem slugs both answer with are in {@code dev.egress.discovery.problem}.
 */
@NullMarked
package dev.egress.discovery.forward;

import org.jspecify.annotations.NullMarked;
