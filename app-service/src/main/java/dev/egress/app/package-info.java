/**
 * App: the dispatch API that routes each tenant's webhook to a live Border hosting one of the tenant's
 * allowed IPs, from local state only.
 *
 * <p>Entry points: {@link dev.egress.app.AppApplication} (the Spring Boot application) and
 * {@code ProblemAdvice} (the one mapping of typed exceptions and framework errors to RFC 9457 problems).
 *
 * <p>Sub-packages by feature: {@code dispatch} ({@code POST /v1/deliveries} and the forward calls),
 * {@code routing} (tenant → candidate routes → selection; the registry watcher's wiring), {@code tenants}
 * (the tenants file), {@code fleet} (one handle per live Border: link, breaker, ejection, traffic),
 * {@code resilience} (breakers, passive health, retry budget), {@code signing} (Standard Webhooks signatures),
 * {@code delivery} (durable delivery: the retry schedule and the verdict of an attempt), {@code status}
 * (read-only views and readiness), {@code ops} (the fleet view, fleet-wide IP changes, the operator page),
 * {@code trust} (signed announcements and mutual TLS towards Borders), {@code server} (deadlines of the
 * listening port), {@code config} (API authentication, OpenAPI), {@code proxy} (the forward-proxy listener:
 * CONNECT tunnels out through {@code dispatch}). See docs/architecture.md ("The request path", "The proxy
 * path").
 */
@NullMarked
package dev.egress.app;

import org.jspecify.annotations.NullMarked;
