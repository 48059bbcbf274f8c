/**
 * Benchmarks, built only with {@code -Pbench}; results and how each was produced are in
 * {@code bench/RESULTS.md}.
 *
 * <p>Sub-packages: {@code routing} (JMH: lookup and snapshot build on the request path),
 * {@code coordination} (JMH: the embedded node through the official SDK), {@code registry} (propagation of
 * a Border's change and of its death to watchers, with real processes) and {@code system} (the driver of
 * the 1,000-Border scale run).
 */
@NullMarked
package dev.egress.bench;

import org.jspecify.annotations.NullMarked;
