package dev.egress.discovery.registry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one {@link AtomicReference} holding the current {@link RoutingSnapshot}. Readers call
 * {@link #current()} on the request path; the registry watcher {@link #offer offers} every successful
 * read. A snapshot is swapped in only when its content differs, and only successful reads are ever
 * offered, so a failed read can never replace good routes with an empty map. Two more guards keep an
 * empty map from arriving by accident: the "nothing read yet" {@link RoutingSnapshot#empty()} is
 * refused, and so is a read in which every owner's payload was rejected (that is a read we could not
 * understand, not an empty registry). Thread-safe.
 */
public final class RoutingTable {

    private static final Logger log = LoggerFactory.getLogger(RoutingTable.class);

    private static final int LOGGED_BORDERS = 20;

    private final AtomicReference<RoutingSnapshot> current = new AtomicReference<>(RoutingSnapshot.empty());
    private final CompletableFuture<RoutingSnapshot> ready = new CompletableFuture<>();
    private final List<Consumer<RoutingSnapshot>> listeners = new CopyOnWriteArrayList<>();
    /** Callers waiting for a snapshot to show something ({@link #whenMatches}); each leaves once answered. */
    private final Set<Waiter> waiters = ConcurrentHashMap.newKeySet();

    private final Clock clock;
    private volatile Instant confirmedAt;
    /** The rejections of the latest read offered, whether or not it was swapped in (a view for operators). */
    private volatile List<RoutingSnapshot.Rejection> latestRejections = List.of();
    /** Set while reads keep coming back unusable, so the warning is logged once per episode, not per poll. */
    private volatile boolean unusableReads;

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
     * The owner payloads refused by the latest read (malformed, unsigned, forged...). Rejections do not
     * count as routing content, so a change in them alone swaps nothing; this view follows every read.
     *
     * @return the rejections of the latest read offered; empty before the first
     */
    public List<RoutingSnapshot.Rejection> latestRejections() {
        return latestRejections;
    }

    /**
     * Records a successful registry read: confirms the current content as fresh and swaps the candidate
     * in if its content differs. Listeners run after the swap, on the calling thread, outside any lock;
     * with a single writer (the watcher) they see generations in order.
     *
     * <p>A candidate with no announcements but with rejections (every owner's payload was malformed)
     * is neither swapped in nor counted as a confirmation: the table keeps its last good snapshot and
     * {@link #age()} keeps growing, exactly as if the read had failed, so staleness limits apply.
     *
     * @param candidate a snapshot built from a successful read (one without owners means an empty
     *                  registry)
     * @return true if the snapshot was swapped in
     * @throws IllegalArgumentException if {@code candidate} is {@link RoutingSnapshot#empty()}, which
     *                                  stands for "not read yet", not for a read
     */
    public boolean offer(RoutingSnapshot candidate) {
        Objects.requireNonNull(candidate, "candidate");
        if (candidate == RoutingSnapshot.empty()) {
            throw new IllegalArgumentException(
                    "candidate: RoutingSnapshot.empty() (expected: a snapshot built from a registry read)");
        }
        latestRejections = candidate.rejections();
        if (candidate.isEmpty() && !candidate.rejections().isEmpty()) {
            if (!unusableReads) {
                unusableReads = true;
                log.warn(
                        "Registry read unusable: all {} payloads were rejected; keeping routing snapshot {}",
                        candidate.rejections().size(),
                        current.get().generation());
            }
            return false;
        }
        unusableReads = false;
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
        log.info("Routing snapshot {} applied; live borders: {}", swapped.generation(), bordersOf(swapped));
        ready.complete(swapped);
        for (Waiter waiter : waiters) {
            waiter.test(swapped);
        }
        for (Consumer<RoutingSnapshot> listener : listeners) {
            try {
                listener.accept(swapped);
            } catch (RuntimeException e) {
                log.warn("Routing snapshot listener failed", e);
            }
        }
        return true;
    }

    /** The live Borders for a log line, cut short: a fleet of a thousand would flood the log on every swap. */
    private static String bordersOf(RoutingSnapshot snapshot) {
        int count = snapshot.announcements().size();
        List<BorderId> ids =
                snapshot.announcements().keySet().stream().limit(LOGGED_BORDERS).toList();
        return count <= LOGGED_BORDERS ? ids.toString() : "%d, first %d: %s".formatted(count, LOGGED_BORDERS, ids);
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
     * Completes with the first snapshot that satisfies a condition: the current one, or the first swapped in
     * after it that does. It completes on the swap itself (on the thread offering it, before the listeners
     * run), so a caller waiting for a change sees it as soon as routing does, with no poll interval added.
     * Cancel the future (or let a timeout complete it) to stop waiting; a condition that throws fails it.
     *
     * @param condition what the snapshot must show; called on the offering thread, so keep it cheap
     * @return a future completed by the first matching snapshot; never completed if none comes
     */
    public CompletableFuture<RoutingSnapshot> whenMatches(Predicate<? super RoutingSnapshot> condition) {
        Waiter waiter = new Waiter(Objects.requireNonNull(condition, "condition"));
        // Registered before the current snapshot is tested: a swap in between is then seen by one of the two.
        waiters.add(waiter);
        waiter.answer.whenComplete((snapshot, failure) -> waiters.remove(waiter));
        waiter.test(current.get());
        return waiter.answer;
    }

    /** How many callers of {@link #whenMatches} are still waiting (tests: none is kept once answered). */
    int waiting() {
        return waiters.size();
    }

    /** One caller of {@link #whenMatches}; identity, not content, tells two apart. */
    private static final class Waiter {

        private final Predicate<? super RoutingSnapshot> condition;
        private final CompletableFuture<RoutingSnapshot> answer = new CompletableFuture<>();

        private Waiter(Predicate<? super RoutingSnapshot> condition) {
            this.condition = condition;
        }

        private void test(RoutingSnapshot snapshot) {
            if (answer.isDone()) {
                return;
            }
            try {
                if (condition.test(snapshot)) {
                    answer.complete(snapshot);
                }
            } catch (RuntimeException e) {
                answer.completeExceptionally(e);
            }
        }
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
