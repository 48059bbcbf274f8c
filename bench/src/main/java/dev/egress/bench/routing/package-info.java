/**
 * JMH benchmarks of App's routing: lookup plus selection on the request path, and building a snapshot from
 * a registry read.
 */
@NullMarked
package dev.egress.bench.routing;

import org.jspecify.annotations.NullMarked;
