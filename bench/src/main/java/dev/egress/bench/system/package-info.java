/**
 * The driver of the whole-platform scale run ({@code bench/system/scale.sh}): many announcements published
 * through the real adapter, then watch latency measured at a running App.
 */
@NullMarked
package dev.egress.bench.system;

import org.jspecify.annotations.NullMarked;
