/**
 * Registry propagation with the real adapter and real processes: from a Border's update to each watcher's
 * snapshot, and how long a killed or stopped Border stays visible.
 */
@NullMarked
package dev.egress.bench.registry;

import org.jspecify.annotations.NullMarked;
