package dev.egress.border.egress;

import dev.egress.discovery.registry.EgressIp;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import reactor.core.publisher.Mono;

/**
 * Admission control for egress calls: the per-IP concurrency limit, the in-flight counts, and the
 * "draining" switch that refuses every new call on shutdown while in-flight calls finish.
 */
final class Admission implements InFlightCalls {

    /** What happened to a call that asked to enter. */
    enum Entry {
        ADMITTED,
        DRAINING,
        LIMIT_REACHED
    }

    private final int limitPerIp;
    private final Map<EgressIp, AtomicInteger> inFlight;
    private final AtomicInteger total = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private volatile boolean draining;

    Admission(Iterable<EgressIp> ips, int limitPerIp) {
        this.limitPerIp = limitPerIp;
        this.inFlight = StreamSupport.stream(ips.spliterator(), false)
                .collect(Collectors.toUnmodifiableMap(Function.identity(), ip -> new AtomicInteger()));
    }

    Entry tryEnter(EgressIp ip) {
        if (draining) {
            return Entry.DRAINING;
        }
        AtomicInteger count = inFlight.get(ip);
        while (true) {
            int current = count.get();
            if (current >= limitPerIp) {
                return Entry.LIMIT_REACHED;
            }
            if (count.compareAndSet(current, current + 1)) {
                total.incrementAndGet();
                break;
            }
        }
        // A call that slipped in while draining was switched on is still counted, so the drain waits for it.
        return Entry.ADMITTED;
    }

    void exit(EgressIp ip) {
        inFlight.get(ip).decrementAndGet();
        if (total.decrementAndGet() == 0 && draining) {
            lock.lock();
            try {
                idle.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Runs an admitted call and gives its slot back when the call ends, however it ends: it completes,
     * fails, is cancelled, or throws while it is built (Netty refuses some input only when the request is
     * assembled). Deferred, so no failure can happen between admission and the release being attached.
     *
     * @param ip   the IP whose slot the call holds (after {@link #tryEnter} said {@code ADMITTED})
     * @param call builds the call
     * @param <T>  the call's result
     * @return the call, releasing the slot once
     */
    <T> Mono<T> holding(EgressIp ip, Supplier<Mono<T>> call) {
        return Mono.defer(call).doFinally(signal -> exit(ip));
    }

    @Override
    public int inFlight(EgressIp ip) {
        AtomicInteger count = inFlight.get(ip);
        return count == null ? 0 : count.get();
    }

    int total() {
        return total.get();
    }

    @Override
    public boolean draining() {
        return draining;
    }

    /**
     * Refuses new calls from now on and waits for in-flight ones.
     *
     * @param timeout the longest wait
     * @return true if every in-flight call finished in time
     */
    boolean drain(Duration timeout) throws InterruptedException {
        draining = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (total.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                // Bounded wait: a signal raced with this check is picked up on the next round.
                idle.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
