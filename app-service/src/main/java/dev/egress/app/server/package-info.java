/**
 * Deadlines on App's listening port ({@code egress.server.*}): complete headers and bodies within bounds,
 * so slow clients cannot hold sockets and buffers.
 */
@NullMarked
package dev.egress.app.server;

import org.jspecify.annotations.NullMarked;
