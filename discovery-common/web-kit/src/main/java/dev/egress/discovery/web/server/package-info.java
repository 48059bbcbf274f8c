/**
 * What both services' listening ports share: their deadlines as one properties record
 * ({@link dev.egress.discovery.web.server.ServerDeadlines}, {@code egress.server.*}) and the deadline on a request's
 * headers ({@link dev.egress.discovery.web.server.RequestHeaderDeadline}), which an idle timeout alone cannot enforce.
 */
@NullMarked
package dev.egress.discovery.web.server;

import org.jspecify.annotations.NullMarked;
