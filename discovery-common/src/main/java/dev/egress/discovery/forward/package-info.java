/**
 * The wire contract of App's forward call to a Border ({@code POST /internal/v1/egress}):
 * {@link dev.egress.discovery.forward.ForwardRequest}, {@link dev.egress.discovery.forward.ForwardResponse}
 * and the stable problem slugs both services answer with ({@link dev.egress.discovery.forward.Problems}).
 */
package dev.egress.discovery.forward;
