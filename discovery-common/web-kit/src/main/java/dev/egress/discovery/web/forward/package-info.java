/**
 * The contract between App and the Border's internal door: its paths
 * ({@link dev.egress.discovery.web.forward.BorderPaths}), the forward call's
 * {@link dev.egress.discovery.web.forward.ForwardRequest} and {@link dev.egress.discovery.web.forward.ForwardResponse},
 * the IP change's body ({@link dev.egress.discovery.web.forward.IpStatusChange}), the one header rule both services
 * check ({@link dev.egress.discovery.web.forward.HeaderFields}), and how App reads a Border's problem answer
 * ({@link dev.egress.discovery.web.forward.BorderProblem}). The problem slugs both answer with are in
 * {@code dev.egress.discovery.web.problem}.
 */
@NullMarked
package dev.egress.discovery.web.forward;

import org.jspecify.annotations.NullMarked;
