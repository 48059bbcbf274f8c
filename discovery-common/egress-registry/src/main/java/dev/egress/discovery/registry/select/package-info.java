/**
 * Selection strategies: which candidate route carries a delivery.
 * {@link dev.egress.discovery.registry.select.BorderSelector} is the one interface;
 * {@link dev.egress.discovery.registry.select.BorderSelectors} creates a strategy from its configuration name
 * ({@code lowest-border-id}, {@code round-robin}, {@code rendezvous}, {@code weighted}).
 */
@NullMarked
package dev.egress.discovery.registry.select;

import org.jspecify.annotations.NullMarked;
