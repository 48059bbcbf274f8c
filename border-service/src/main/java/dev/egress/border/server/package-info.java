/**
 * Deadlines and limits on the Border's own listening port ({@code egress.server.*}), so that a slow or abusive
 * client cannot hold sockets before it has even been authenticated: the HTTP/1.1 header deadline, and
 * {@code Http2Guard} for HTTP/2 (the header deadline for header blocks, the rapid-reset limit for connections
 * without a verified App certificate).
 */
@NullMarked
package dev.egress.border.server;

import org.jspecify.annotations.NullMarked;
