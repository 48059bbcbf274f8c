/**
 * The Border: sends App's webhooks from sockets bound to the dedicated IPs it hosts, vets every target, and
 * keeps its slot in the registry true.
 *
 * <p>Entry points: {@link dev.egress.border.BorderApplication} (the Spring Boot application),
 * {@code BearerTokenFilter} (the token check of every door but the probes and Prometheus) and
 * {@code ProblemAdvice} (the one mapping of typed exceptions to RFC 9457 problems), and the Border's identity that
 * every feature reads: {@link dev.egress.border.BorderProperties} ({@code egress.border.*}) and
 * {@link dev.egress.border.HostedIps} (the hosted IPs and their bind addresses).
 *
 * <p>Sub-packages by feature: {@code egress} (the forward endpoint, bound clients, limits, drain),
 * {@code ssrf} (the SSRF guard), {@code registration} (the publish side), {@code decisions} (operator
 * decisions stored in the registry, restored at startup), {@code identity} (the egress identity check: is
 * each IP seen outside as itself?), {@code ops} (the operator API),
 * {@code trust} (identity, signed announcements, client certificates), {@code server} (deadlines of the
 * listening port), {@code tunnel} (the forward proxy's tunnels from App); each feature's properties and wiring live beside it. The request path is described in
 * docs/architecture.md ("The request path", "Egress at the Border").
 */
@NullMarked
package dev.egress.border;

import org.jspecify.annotations.NullMarked;
