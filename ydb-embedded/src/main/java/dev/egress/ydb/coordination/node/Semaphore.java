package dev.egress.ydb.coordination.node;

import com.google.protobuf.ByteString;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One semaphore: its tokens, owners, FIFO waiters and watchers. Mutable, owned by the node thread.
 * Identity matters: a deleted and re-created semaphore of the same name is a different object.
 */
final class Semaphore {

    final String name;
    final boolean ephemeral;
    long limit;
    ByteString data;
    /** Tokens currently acquired, the sum of the owners' counts (unsigned). */
    long count;

    final Map<Session, Owner> owners = new LinkedHashMap<>();
    /** Waiters by order id: the head of the queue is the first entry. */
    final TreeMap<Long, Waiter> waiters = new TreeMap<>(Long::compareUnsigned);

    final Set<Session> dataWatchers = new LinkedHashSet<>();
    final Set<Session> ownersWatchers = new LinkedHashSet<>();

    Semaphore(String name, long limit, ByteString data, boolean ephemeral) {
        this.name = name;
        this.limit = limit;
        this.data = data;
        this.ephemeral = ephemeral;
    }

    /** Whether {@code tokens} more fit under the limit; unsigned, and {@code limit - count} cannot underflow. */
    boolean canAcquire(long tokens) {
        return Long.compareUnsigned(tokens, limit - count) <= 0;
    }

    boolean isEmpty() {
        return owners.isEmpty() && waiters.isEmpty();
    }

    /** Whether {@code waiter} heads the FIFO queue (only the head can be granted). */
    boolean isHead(Waiter waiter) {
        return !waiters.isEmpty() && waiters.firstKey() == waiter.orderId;
    }
}
