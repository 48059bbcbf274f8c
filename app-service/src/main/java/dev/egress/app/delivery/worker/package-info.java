/**
 * Durable delivery's workers: on every App, a poller claims due records of the buckets this App owns and makes
 * their attempts through the one attempt engine, bounded in total and per destination, and writes each attempt and
 * what follows it back to the store.
 */
@NullMarked
package dev.egress.app.delivery.worker;

import org.jspecify.annotations.NullMarked;
