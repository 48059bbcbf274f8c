package dev.egress.discovery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one {@link AtomicReference} holding the current {@link RoutingSnapshot}. Readers call
 * {@link #current()} on the request path; the registry watcher {@link #offer offers} every successful
 * read. A snapshot is swapped in only when its content differs, and only successful reads are ever
 * offered, so a failed read can never replace good routes with an empty map.
 */
public final class RoutingTable {

    private static final Logger log = LoggerFactory.getLogger(RoutingTable.class);

    private final AtomicReference<RoutingSnapshot> current = new AtomicReference<>(RoutingSnapshot.empty());
    private final CompletableFuture<RoutingSnapshot> ready = new CompletableFuture<>();
    private final List<Consumer<RoutingSnapshot>> listeners = new CopyOnWriteArrayList<>();
    private final Clock clock;
    private volatile Instant confirmedAt;

    /**
     * Creates an empty, not yet ready table.
     *
     * @param clock time source for the snapshot age
     */
    public RoutingTable(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The current snapshot. Never null; empty until the first read.
     *
     * @return the snapshot
     */
    public RoutingSnapshot current() {
        return current.get();
    }

    /**
     * Records a successful registry read: confirms the current content as fresh and swaps the candidate
     * in if its content differs. Listeners run after the swap, on the calling thread, outside any lock.
     *
     * @param candidate a snapshot built from a successful read (an empty one means an empty registry)
     * @return true if the snapshot was swapped in
     */
    public boolean offer(RoutingSnapshot candidate) {
        Objects.requireNonNull(candidate, "candidate");
        RoutingSnapshot swapped = null;
        // Single writer in practice (one watcher), but a CAS loop keeps two writers from losing a generation.
        while (true) {
            RoutingSnapshot previous = current.get();
            if (ready.isDone() && previous.sameContentAs(candidate)) {
                break;
            }
            RoutingSnapshot next = candidate.withGeneration(previous.generation() + 1);
            if (current.compareAndSet(previous, next)) {
                swapped = next;
                break;
            }
        }
        confirmedAt = clock.instant();
        if (swapped == null) {
            return false;
        }
        log.info("Routing snapshot {} applied; live borders: {}", swapped.generation(),
                swapped.announcements().keySet().stream().sorted().toList());
        ready.complete(swapped);
        for (Consumer<RoutingSnapshot> listener : listeners) {
            try {
                listener.accept(swapped);
            } catch (RuntimeException e) {
                log.warn("Routing snapshot listener failed", e);
            }
        }
        return true;
    }

    /**
     * Completes with the first snapshot read from the registry.
     *
     * @return a future that never fails
     */
    public CompletableFuture<RoutingSnapshot> whenReady() {
        return ready.copy();
    }

    /**
     * Whether at least one registry read succeeded.
     *
     * @return true once ready
     */
    public boolean isReady() {
        return ready.isDone();
    }

    /**
     * How long since the registry last confirmed the current content.
     *
     * @return the age; effectively infinite before the first successful read
     */
    public Duration age() {
        Instant confirmed = confirmedAt;
        return confirmed == null ? Duration.ofMillis(Long.MAX_VALUE) : Duration.between(confirmed, clock.instant());
    }

    /**
     * Registers a listener called after every swap.
     *
     * @param listener receives the new snapshot
     */
    public void addListener(Consumer<RoutingSnapshot> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }
}
