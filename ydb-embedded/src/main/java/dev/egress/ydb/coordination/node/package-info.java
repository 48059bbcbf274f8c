/**
 * The coordination node's state: sessions, semaphores, owners, waiters and watches, changed only on the
 * node's own thread by {@link dev.egress.ydb.coordination.node.CoordinationNode} (one per path, created and
 * described by {@link dev.egress.ydb.coordination.node.CoordinationNodes}). Nothing here touches gRPC.
 */
@NullMarked
package dev.egress.ydb.coordination.node;

import org.jspecify.annotations.NullMarked;
