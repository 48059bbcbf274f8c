package dev.egress.app.delivery.worker;

import dev.egress.app.EgressProblemException;
import dev.egress.app.delivery.Attempt;
import dev.egress.app.delivery.DeliveryRecord;
import dev.egress.app.delivery.DeliveryStore;
import dev.egress.app.delivery.DurableProperties;
import dev.egress.app.delivery.NextAttempt;
import dev.egress.app.delivery.OwnedBuckets;
import dev.egress.app.dispatch.DeliveryRequest;
import dev.egress.app.dispatch.DeliveryRequestParser;
import dev.egress.discovery.registry.RateLimitedLog;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.scheduler.Schedulers;

/**
 * The workers of one App: every {@code poll-interval} (up to four times that while there is nothing due) a single
 * poller claims due records of the buckets this App
 * owns ({@link OwnedBuckets}, read once per poll) as long as slots are free, and starts their attempts, which run
 * concurrently on the attempt engine. Bounds: {@code max-in-flight} attempts in all and
 * {@code max-in-flight-per-destination} to one destination; a record that cannot start soon (its destination is
 * full or backing off) is handed back due a little later, without counting an attempt. A freshly accepted record is
 * started here at once ({@link #startNow}), without waiting for a poll.
 *
 * <p>Stopping stops the poller and waits a little for attempts in flight; an attempt that does not finish keeps its
 * lease until it expires, and another App (or this one after a restart) claims it then.
 */
public final class DeliveryWorkers implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DeliveryWorkers.class);
    /** The most records one claim takes: claims are transactions, and short ones conflict less. */
    private static final int MAX_CLAIM = 64;

    private static final Duration STOP_PATIENCE = Duration.ofSeconds(10);
    /** How many poll intervals an idle poller waits at most between polls. */
    static final int IDLE_SLOWDOWN = 4;

    private final DeliveryStore store;
    private final DurableAttempts attempts;
    private final OwnedBuckets buckets;
    private final DurableMetrics metrics;
    private final DurableProperties properties;
    private final DeliveryRequestParser parser = new DeliveryRequestParser();
    private final Destinations destinations;
    private final Clock clock;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final RateLimitedLog pollFailures = new RateLimitedLog(log, Duration.ofSeconds(30));
    private volatile @Nullable ScheduledExecutorService poller;

    DeliveryWorkers(
            DeliveryStore store,
            DurableAttempts attempts,
            OwnedBuckets buckets,
            DurableMetrics metrics,
            DurableProperties properties,
            Clock clock) {
        this.store = store;
        this.attempts = attempts;
        this.buckets = buckets;
        this.metrics = metrics;
        this.properties = properties;
        this.destinations = new Destinations(properties.maxInFlightPerDestination());
        this.clock = clock;
    }

    /**
     * Starts the first attempt of a record this App just accepted (it is leased to this App already).
     *
     * @param record the accepted record
     */
    public void startNow(DeliveryRecord record) {
        Schedulers.boundedElastic().schedule(() -> offer(record));
    }

    /**
     * One poll: claims while slots are free, bucket by bucket. Catches everything, so polling goes on.
     *
     * @return how many records it claimed
     */
    int poll() {
        int claimed = 0;
        try {
            for (int bucket : buckets.current()) {
                int free = properties.maxInFlight() - inFlight.get();
                if (free <= 0) {
                    return claimed;
                }
                DeliveryStore.Claim claim = store.claim(
                        bucket, properties.workerId(), clock.instant(), properties.lease(), Math.min(free, MAX_CLAIM));
                metrics.leaseExpiries(claim.leaseExpiries());
                metrics.claimConflicts(claim.conflicts());
                claimed += claim.records().size();
                claim.records().forEach(this::offer);
            }
        } catch (RuntimeException e) {
            // Rate-limited: an unreachable store fails every poll until it is back.
            pollFailures.warn("Durable delivery poll failed; polling again every " + properties.pollInterval(), e);
        }
        return claimed;
    }

    /**
     * The wait before the next poll: the poll interval while polls find work, doubling while they find none, up to
     * {@link #IDLE_SLOWDOWN} times the interval. A poll is one transaction per owned bucket, so an idle fleet would
     * otherwise keep the store busy for nothing; a due record waits at most the longer interval, and a new delivery's
     * first attempt never waits for a poll at all.
     *
     * @param current the wait before this poll
     * @param claimed what this poll claimed
     * @return the wait before the next one
     */
    Duration nextWait(Duration current, int claimed) {
        if (claimed > 0) {
            return properties.pollInterval();
        }
        Duration longest = properties.pollInterval().multipliedBy(IDLE_SLOWDOWN);
        Duration doubled = current.multipliedBy(2);
        return doubled.compareTo(longest) > 0 ? longest : doubled;
    }

    private void pollAndReschedule(ScheduledExecutorService on, Duration waited) {
        Duration next = nextWait(waited, poll());
        if (poller == on) {
            try {
                on.schedule(() -> pollAndReschedule(on, next), next.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopped) {
                // Stopped meanwhile: nothing more to poll.
            }
        }
    }

    /** Starts a claimed record's attempt, or hands it back when it cannot start soon. */
    private void offer(DeliveryRecord record) {
        DeliveryRequest request;
        try {
            request = parser.parse(record.request());
        } catch (EgressProblemException e) {
            // Stored by an App whose rules were laxer: it will never be valid, so it is given up at once.
            giveUp(record, e.problem().slug());
            return;
        }
        String destination = Destinations.of(request.url());
        Instant now = clock.instant();
        if (inFlight.incrementAndGet() > properties.maxInFlight()) {
            inFlight.decrementAndGet();
            handBack(record, now.plus(properties.pollInterval()));
            return;
        }
        Instant later = destinations.acquire(destination, now);
        if (later != null) {
            inFlight.decrementAndGet();
            handBack(record, later);
            return;
        }
        attempts.attempt(record, request)
                .doFinally(signal -> inFlight.decrementAndGet())
                .subscribe(
                        failed -> destinations.release(destination, failed, clock.instant()),
                        e -> destinations.release(destination, true, clock.instant()));
    }

    private void handBack(DeliveryRecord record, Instant at) {
        try {
            store.postpone(record.key(), properties.workerId(), at);
        } catch (RuntimeException e) {
            log.debug("Durable delivery {} not handed back ({}); its lease expires instead", record.id(), e.toString());
        }
    }

    private void giveUp(DeliveryRecord record, String reason) {
        Instant now = clock.instant();
        try {
            store.recordAttempt(
                    record.key(),
                    properties.workerId(),
                    new Attempt(now, null, null, "dead", reason, null, Duration.ZERO, null),
                    new NextAttempt.Dead(false),
                    now);
            metrics.attempt(record.tenantId(), "dead");
        } catch (RuntimeException e) {
            log.warn("Durable delivery {} could not be given up; its lease expires instead", record.id(), e);
        }
    }

    /**
     * Attempts in flight now.
     *
     * @return how many
     */
    public int inFlight() {
        return inFlight.get();
    }

    @Override
    public void start() {
        ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "delivery-poller");
            thread.setDaemon(true);
            return thread;
        });
        poller = started;
        Duration first = properties.pollInterval();
        started.schedule(() -> pollAndReschedule(started, first), first.toMillis(), TimeUnit.MILLISECONDS);
        log.info(
                "Durable delivery workers started as '{}': polling every {}, at most {} attempts in flight",
                properties.workerId(),
                properties.pollInterval(),
                properties.maxInFlight());
    }

    @Override
    public void stop() {
        ScheduledExecutorService running = poller;
        poller = null;
        if (running == null) {
            return;
        }
        running.shutdownNow();
        long until = System.nanoTime() + STOP_PATIENCE.toNanos();
        // In-flight attempts run on the engine's threads: give them a moment to write their results.
        while (inFlight.get() > 0 && System.nanoTime() < until) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        log.info("Durable delivery workers stopped; {} attempts left to their leases", inFlight.get());
    }

    @Override
    public boolean isRunning() {
        return poller != null;
    }

    /** Stops before the web server and the fleet, so attempts in flight can still reach their Borders. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1024;
    }
}
