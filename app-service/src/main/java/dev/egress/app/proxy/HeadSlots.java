package dev.egress.app.proxy;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Places for connections that have not yet sent a whole request head, in all and per source address
 * ({@code egress.proxy.limits.head-connections}, {@code head-connections-per-source}): what an unauthenticated
 * sender can hold of the listener. A place is taken when the connection opens and given back when its head is
 * read, refused or timed out, or the connection closes, through its {@link Slot}, once.
 */
final class HeadSlots {

    /** One connection's place; giving it back twice gives it back once. */
    interface Slot {
        /** Gives the place back. */
        void release();
    }

    private final int total;
    private final int perSource;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, AtomicInteger> bySource = new ConcurrentHashMap<>();

    HeadSlots(int total, int perSource) {
        this.total = total;
        this.perSource = perSource;
    }

    /**
     * Takes a place for a new connection.
     *
     * @param source the connection's peer address
     * @return the place, or null when the listener or this source is at its limit
     */
    @Nullable
    Slot tryTake(InetAddress source) {
        if (open.incrementAndGet() > total) {
            open.decrementAndGet();
            return null;
        }
        boolean[] taken = new boolean[1];
        bySource.compute(source, (address, count) -> {
            AtomicInteger current = count == null ? new AtomicInteger() : count;
            taken[0] = current.get() < perSource;
            if (taken[0]) {
                current.incrementAndGet();
            }
            return current.get() == 0 ? null : current;
        });
        if (!taken[0]) {
            open.decrementAndGet();
            return null;
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                bySource.computeIfPresent(source, (address, count) -> count.decrementAndGet() == 0 ? null : count);
                open.decrementAndGet();
            }
        };
    }

    /** Connections holding a place now. */
    int open() {
        return open.get();
    }
}
