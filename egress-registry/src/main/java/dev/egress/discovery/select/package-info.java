/**
 * Selection strategies: which candidate route carries a delivery.
 * {@link dev.egress.discovery.select.BorderSelector} is the one interface;
 * {@link dev.egress.discovery.select.BorderSelectors} creates a strategy from its configuration name
 * ({@code lowest-border-id}, {@code round-robin}, {@code rendezvous}, {@code weighted}).
 */
@NullMarked
package dev.egress.discovery.select;

import org.jspecify.annotations.NullMarked;
