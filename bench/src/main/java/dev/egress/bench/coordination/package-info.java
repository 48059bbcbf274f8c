/**
 * JMH benchmarks of the embedded coordination node through the official SDK: acquire/release round trips
 * and watch notification latency with many watchers.
 */
@NullMarked
package dev.egress.bench.coordination;

import org.jspecify.annotations.NullMarked;
