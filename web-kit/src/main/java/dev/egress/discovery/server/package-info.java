/**
 * What both services' listening ports share: the deadline on a request's headers
 * ({@link dev.egress.discovery.server.RequestHeaderDeadline}), which an idle timeout alone cannot enforce.
 */
@NullMarked
package dev.egress.discovery.server;

import org.jspecify.annotations.NullMarked;
