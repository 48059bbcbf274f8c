/**
 * The registry on a YDB coordination node, and the only package that imports {@code tech.ydb.*}. Entry
 * points, both built by {@link dev.egress.discovery.registry.ydb.YdbRegistry} and both keeping their session
 * with one {@link dev.egress.discovery.registry.ydb.SessionKeeper}:
 * {@link dev.egress.discovery.registry.ydb.YdbBorderRegistry} (a Border's slot of the semaphore, held in its
 * own session) and {@link dev.egress.discovery.registry.ydb.YdbRegistryWatcher} (App's describe + watch + poll
 * that feeds the routing table). See docs/architecture.md ("The registry protocol").
 */
@NullMarked
package dev.egress.discovery.registry.ydb;

import org.jspecify.annotations.NullMarked;
