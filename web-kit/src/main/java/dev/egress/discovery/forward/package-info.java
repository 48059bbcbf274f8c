/**
 * The contract between App and the Border's internal door: its paths
 * ({@link dev.egress.discovery.forward.BorderPaths}), the forward call's
 * {@link dev.egress.discovery.forward.ForwardRequest} and {@link dev.egress.discovery.forward.ForwardResponse},
 * the IP change's body ({@link dev.egress.discovery.forward.IpStatusChange}), the one header rule both services
 * check ({@link dev.egress.discovery.forward.HeaderFields}), and how App reads a Border's problem answer
 * ({@link dev.egress.discovery.forward.BorderProblem}). The problem slugs both answer with are in
 * {@code dev.egress.discovery.problem}.
 */
@NullMarked
package dev.egress.discovery.forward;

import org.jspecify.annotations.NullMarked;
