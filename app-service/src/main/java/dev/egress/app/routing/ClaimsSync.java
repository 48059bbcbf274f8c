package dev.egress.app.routing;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.RateLimitedLog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this App's standing claims ({@link StandingClaims}) and the claims table ({@link ClaimRecords}) in step, so
 * that every App knows the claims of Borders that hold no slot, whichever App saw them. One thread does it, every
 * {@code egress.routing.claims-sync-interval} and once at start, before this App serves. Each iteration, in this
 * order:
 *
 * <ol>
 *   <li>stores every standing claim the table did not hold when last read (a live claim, or one this App
 *       remembers from before its Border left);
 *   <li>deletes the rows whose Border is live and no longer claims the IP (an operator released it there or took it
 *       out of its configuration: the same evidence that ends a claim in memory);
 *   <li>reads the whole table;
 *   <li>hands it to the router: the claims of absent Borders become the table's rows, so another App's move ends
 *       them here too; a claim this App remembers and the table never knew stays (the next iteration stores it),
 *       one the table had and lost ends. Live Borders' claims always come from the snapshot.
 * </ol>
 *
 * <p>An operator's move ({@link #recordMove}) runs on the same thread, so no iteration that read the table before
 * the move can bring the moved-away claims back after it. A failing store is logged (rate-limited) and counted, and
 * the claims in memory are kept: a claim is never dropped because the table cannot be read. Without the table
 * (durable delivery off) nothing runs and the claims are this process's memory only, which the start says once.
 */
public final class ClaimsSync implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClaimsSync.class);
    private static final Duration FIRST_SYNC_WAIT = Duration.ofSeconds(10);

    private final EgressRouter router;
    private final @Nullable ClaimRecords records;
    private final Duration interval;
    private final Clock clock;
    private final RateLimitedLog failureLines = new RateLimitedLog(log, Duration.ofSeconds(30));
    private final @Nullable Counter failures;
    private final ScheduledExecutorService loop;
    private volatile Instant lastSuccess;
    /** The table as last read; read and written on the loop's thread only. */
    private Set<Claim> lastRead = Set.of();

    /**
     * Creates the loop; {@link #start} runs it.
     *
     * @param router   the router whose standing claims are kept in step
     * @param records  the claims table, or null when durable delivery is off
     * @param interval the time between two iterations
     * @param clock    the clock the rows' {@code seen_at} and the sync age are read on
     * @param meters   where the sync's gauge and counter go (with the table only)
     */
    public ClaimsSync(
            EgressRouter router, @Nullable ClaimRecords records, Duration interval, Clock clock, MeterRegistry meters) {
        this.router = router;
        this.records = records;
        this.interval = interval;
        this.clock = clock;
        this.lastSuccess = clock.instant();
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "routing-claims");
            thread.setDaemon(true);
            return thread;
        });
        if (records == null) {
            this.failures = null;
            return;
        }
        this.failures = Counter.builder("egress.routing.claims.sync.failures")
                .description("Syncs of the standing claims with the claims table that failed (the claims in memory"
                        + " were kept)")
                .register(meters);
        Gauge.builder("egress.routing.claims.sync.age", this, ClaimsSync::ageSeconds)
                .description("Seconds since this App last brought its standing claims and the claims table in step"
                        + " (since its start before the first time)")
                .baseUnit("seconds")
                .register(meters);
    }

    /**
     * Runs the first iteration and waits for it (bounded), so that an App that starts while an owner is absent knows
     * its claim before it serves; then runs one every interval. Without the table it only says so.
     */
    public void start() {
        if (records == null) {
            log.info("Standing claims of dedicated IPs are this process's memory only (durable delivery is off): an App"
                    + " that starts while an IP's owner is absent knows only the claims it sees, and a move through"
                    + " this App ends an absent owner's claim on this App only");
            return;
        }
        try {
            loop.submit(this::sync).get(FIRST_SYNC_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn(
                    "Claims table: the first sync did not finish within {}; it goes on in the background",
                    FIRST_SYNC_WAIT);
        }
        long every = interval.toNanos();
        loop.scheduleWithFixedDelay(this::sync, every, every, TimeUnit.NANOSECONDS);
        log.info("Standing claims of dedicated IPs are stored in the claims table, in step every {}", interval);
    }

    /**
     * Records an operator's confirmed move: with the table on, stores it first (the new owner's claim kept, every
     * other claim of the IP removed, in one transaction) and then ends the other claims here; without it, here only.
     * Runs on the loop's thread, between two iterations.
     *
     * @param ip the IP
     * @param to the Border it was moved to
     * @return completes once recorded; fails with {@link ClaimStoreException} when the table could not be written,
     *         and nothing changed here then
     */
    public CompletableFuture<Void> recordMove(EgressIp ip, BorderId to) {
        ClaimRecords table = records;
        if (table == null) {
            router.operatorMoved(ip, to);
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.runAsync(
                () -> {
                    table.keepOnly(new Claim(ip, to), clock.instant());
                    router.operatorMoved(ip, to);
                },
                loop);
    }

    /** One iteration (see the class comment); catches everything, and keeps the claims in memory on a failure. */
    void sync() {
        ClaimRecords table = records;
        if (table == null) {
            return;
        }
        try {
            EgressRouter.View view = router.currentView();
            Set<Claim> standing = view.claims().all();
            Set<Claim> known = new HashSet<>(lastRead);
            Set<Claim> unstored = new HashSet<>(standing);
            unstored.removeAll(lastRead);
            if (!unstored.isEmpty()) {
                table.upsert(unstored, clock.instant());
                known.addAll(unstored);
            }
            List<Claim> takenOff = StandingClaims.takenOff(lastRead, view.snapshot());
            if (!takenOff.isEmpty()) {
                table.delete(takenOff);
                log.info("Claims table: removed {}, released or out of their live Border's configuration", takenOff);
            }
            Set<Claim> rows = table.readAll();
            lastRead = rows;
            Set<Claim> before = router.currentView().claims().all();
            router.storedClaims(rows, known);
            logChanges(before, router.currentView());
            lastSuccess = clock.instant();
        } catch (RuntimeException e) {
            if (failures != null) {
                failures.increment();
            }
            failureLines.warn("Claims table: the sync failed; this App keeps the standing claims it has: " + e, null);
        }
    }

    /** Logs what the table changed among the claims of absent Borders (live ones follow the snapshot). */
    private static void logChanges(Set<Claim> before, EgressRouter.View now) {
        Set<Claim> after = now.claims().all();
        Set<String> learnt = absent(after, before, now);
        Set<String> ended = absent(before, after, now);
        if (!learnt.isEmpty() || !ended.isEmpty()) {
            log.info(
                    "Standing claims of Borders that hold no slot, from the claims table: learnt {}, ended {} (moved"
                            + " by an operator through an App, or released on the Border)",
                    learnt,
                    ended);
        }
    }

    /** The claims of {@code these} not in {@code those} whose Border is not live, as sorted text. */
    private static Set<String> absent(Set<Claim> these, Set<Claim> those, EgressRouter.View now) {
        Set<String> out = new TreeSet<>();
        for (Claim claim : these) {
            if (!those.contains(claim) && !now.snapshot().announcements().containsKey(claim.border())) {
                out.add(claim.toString());
            }
        }
        return out;
    }

    private double ageSeconds() {
        return Math.max(0, Duration.between(lastSuccess, clock.instant()).toMillis() / 1000.0);
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
