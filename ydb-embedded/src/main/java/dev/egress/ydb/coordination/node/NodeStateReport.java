package dev.egress.ydb.coordination.node;

import java.util.List;

/**
 * A snapshot of one node's bookkeeping, with every broken invariant spelled out (counts equal the sum of owners,
 * owners and waiters point at live sessions, no empty ephemeral semaphore, no watch of a detached session...).
 *
 * @param path             the node path
 * @param sessions         live sessions, attached or detached
 * @param attachedSessions sessions attached to a stream
 * @param semaphores       existing semaphores
 * @param owners           owner entries over all semaphores
 * @param waiters          waiter entries over all semaphores
 * @param watches          armed watches
 * @param scheduledTasks   timers and tasks queued on the node thread
 * @param violations       broken invariants; empty when consistent
 */
public record NodeStateReport(
        String path,
        int sessions,
        int attachedSessions,
        int semaphores,
        long owners,
        long waiters,
        long watches,
        int scheduledTasks,
        List<String> violations) {

    /** Copies the violations. */
    public NodeStateReport {
        violations = List.copyOf(violations);
    }

    /** Whether no invariant is broken. */
    public boolean consistent() {
        return violations.isEmpty();
    }
}
