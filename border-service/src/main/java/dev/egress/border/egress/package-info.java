/**
 * App's forward call, {@code POST /internal/v1/egress}, from check to answer: {@code ForwardController} and
 * {@code EgressService} (hosted, ACTIVE, size, SSRF, concurrency, then send), {@code BoundClients} (one
 * client bound to each dedicated IP) and {@code BorderLifecycle} (register on start, drain on SIGTERM).
 */
@NullMarked
package dev.egress.border.egress;

import org.jspecify.annotations.NullMarked;
