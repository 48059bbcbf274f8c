/**
 * Deadlines on App's listening port ({@code egress.server.*}): complete headers and bodies within bounds,
 * so slow clients cannot hold sockets and buffers.
 */
package dev.egress.app.server;
