/**
 * The wire contract of App's forward call to a Border ({@code POST /internal/v1/egress}):
 * {@link dev.egress.discovery.forward.ForwardRequest} and {@link dev.egress.discovery.forward.ForwardResponse}.
 * The problem types a Border answers with are in {@code problem}
 * ({@link dev.egress.discovery.problem.ProblemType}).
 */
@NullMarked
package dev.egress.discovery.forward;

import org.jspecify.annotations.NullMarked;
