/**
 * Deadlines on the Border's own listening port ({@code egress.server.*}), so that a slow client cannot hold
 * sockets before it has even been authenticated.
 */
@NullMarked
package dev.egress.border.server;

import org.jspecify.annotations.NullMarked;
