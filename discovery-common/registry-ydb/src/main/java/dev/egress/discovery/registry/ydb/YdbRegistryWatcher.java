package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.YdbConnection.bounded;
import static dev.egress.discovery.registry.ydb.YdbConnection.reason;

import dev.egress.discovery.registry.AnnouncementReader;
import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.RegistryWatcher;
import dev.egress.discovery.registry.RoutingTable;
import io.grpc.ClientInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.description.SemaphoreDescription;
import tech.ydb.coordination.description.SemaphoreWatcher;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.coordination.settings.WatchSemaphoreMode;
import tech.ydb.core.Result;
import tech.ydb.core.StatusCode;

/**
 * Read side of the registry on a YDB coordination node (docs/architecture.md, "The registry protocol"). One
 * session describes the semaphore {@code WITH_OWNERS} and watches its owners (one-shot, re-armed after every
 * change), and a poll every {@code pollInterval} is the safety net: the tick re-arms a missing watch and
 * looks for a missing semaphore again, so no failure can leave the watcher idle. Every successful read goes
 * to the {@link RoutingTable}; failures never reach it, so the last good snapshot stays and its age grows.
 * This class holds the reads; the session they run on (opening, the semaphore's existence, reconnects with
 * backoff) is kept by a {@link SessionKeeper}, the same as a Border's registration uses. Built by
 * {@link YdbRegistry}, which requires the {@link AnnouncementReader}.
 *
 * <p>Fields marked "loop" are touched only on the watcher's {@link RegistryLoop}.
 */
public final class YdbRegistryWatcher implements RegistryWatcher {

    private static final Logger log = LoggerFactory.getLogger(YdbRegistryWatcher.class);

    /** Apps are few; reconnect faster than Borders, but still with jitter. */
    private static final Duration RECONNECT_CAP = Duration.ofSeconds(5);

    private final YdbConnection connection;
    private final RegistryLoop loop;
    private final String semaphore;
    private final WatcherMetrics metrics;
    private final OwnersApplier applier;
    private final Backoff backoff = new Backoff(Backoff.BASE, RECONNECT_CAP);
    private final SessionKeeper keeper;

    private Object watch; // loop: token of the armed watch, null if none
    private boolean polling; // loop: a poll is in flight
    private long sent; // loop: sequence number of the last read sent
    private long applied; // loop: sequence number of the last read applied

    /** Built by {@link YdbRegistry}; {@link #start()} begins the I/O. */
    YdbRegistryWatcher(
            RegistrySettings settings,
            RoutingTable table,
            MeterRegistry meters,
            Clock clock,
            AnnouncementReader reader,
            List<ClientInterceptor> interceptors) {
        this.connection = new YdbConnection(settings, "egress-registry-watch-connect", interceptors);
        this.loop = new RegistryLoop("egress-registry-watch-" + System.identityHashCode(this));
        this.semaphore = settings.semaphore();
        this.metrics = new WatcherMetrics(meters);
        this.applier = new OwnersApplier(reader, table, clock, metrics);
        this.keeper = new SessionKeeper(connection, loop, backoff, "Registry watcher", log, new Reads());
    }

    /** Starts watching; returns at once, the table becomes ready with the first successful read. */
    void start() {
        RegistrySettings settings = connection.settings();
        log.info(
                "Watching registry {}/{} at {} (poll every {})",
                settings.node(),
                settings.semaphore(),
                settings.connectionString(),
                settings.pollInterval());
        loop.execute(keeper::start);
        loop.every(settings.pollInterval(), this::tick);
    }

    /** The safety net: runs every poll interval whatever happened before, and re-arms what is missing. */
    private void tick() {
        if (keeper.closing()) {
            return;
        }
        if (keeper.ready() == null) {
            metrics.pollFailure();
            keeper.tick();
            return;
        }
        readAll();
    }

    /** What the watcher does with the session its keeper keeps up. */
    private final class Reads implements SessionOwner {

        @Override
        public void ready(SessionPhase.Up up) {
            backoff.reset();
            keeper.retire(); // reads need no predecessor: a reattached session goes at once
            readAll();
        }

        @Override
        public void dropped() {
            watch = null;
            polling = false;
        }

        @Override
        public void failed(SessionOwner.Failure failure) {
            if (failure == SessionOwner.Failure.SEMAPHORE) {
                metrics.pollFailure();
            } else {
                metrics.sessionFailure();
            }
        }

        @Override
        public void link(LinkState state) {
            metrics.link(state);
        }
    }

    // ---- reads (loop) ----

    /** Starts the reads on a ready session: arms the watch (unless armed) and polls (unless a poll is out). */
    private void readAll() {
        arm();
        poll();
    }

    /** The session to read on now, or null if none is ready. */
    @Nullable
    private CoordinationSession readyOn() {
        SessionPhase.Up up = keeper.ready();
        return up == null ? null : up.link().session();
    }

    private void arm() {
        CoordinationSession on = readyOn();
        if (watch != null || on == null) {
            return;
        }
        Object token = new Object();
        watch = token;
        long seq = ++sent;
        CompletableFuture<Result<SemaphoreWatcher>> request =
                on.watchSemaphore(semaphore, DescribeSemaphoreMode.WITH_OWNERS, WatchSemaphoreMode.WATCH_OWNERS);
        loop.when(bounded(request), (result, failure) -> {
            if (keeper.on(on) == null || watch != token) {
                return;
            }
            if (failure != null || !result.isSuccess()) {
                watch = null;
                readFailed("watch", on, result, failure);
                return;
            }
            apply(seq, result.getValue().getDescription());
            // One-shot: whatever ends this watch (a change, a replaced watch, a broken stream) arms the next.
            loop.when(result.getValue().getChangedFuture(), (changed, changeFailure) -> {
                if (watch != token) {
                    return;
                }
                watch = null;
                if (changeFailure != null || !changed.isSuccess()) {
                    metrics.watchFailure();
                    log.debug("Owner watch ended without a change: {}", reason(changed, changeFailure));
                }
                arm();
            });
        });
    }

    private void poll() {
        CoordinationSession on = readyOn();
        if (polling || on == null) {
            return;
        }
        polling = true;
        long seq = ++sent;
        loop.when(bounded(on.describeSemaphore(semaphore, DescribeSemaphoreMode.WITH_OWNERS)), (result, failure) -> {
            if (keeper.on(on) == null) {
                return;
            }
            polling = false;
            if (failure != null || !result.isSuccess()) {
                readFailed("poll", on, result, failure);
                return;
            }
            apply(seq, result.getValue());
        });
    }

    private void readFailed(String kind, CoordinationSession on, Result<?> result, Throwable failure) {
        if (kind.equals("watch")) {
            metrics.watchFailure();
        } else {
            metrics.pollFailure();
        }
        String reason = reason(result, failure);
        if (failure != null && YdbConnection.cause(failure) instanceof TimeoutException) {
            // No answer within the step timeout: a half-open stream that the SDK will never notice.
            keeper.failed(kind + ": " + reason);
            return;
        }
        if (failure == null && result.getStatus().getCode() == StatusCode.NOT_FOUND) {
            log.warn(
                    "Registry semaphore {} not found; {}",
                    semaphore,
                    connection.settings().createIfMissing() ? "creating it" : "waiting for it");
            keeper.recheckSemaphore(on);
            return;
        }
        // BAD_SESSION and friends: the session listener or the next tick takes over.
        log.warn("Registry {} failed: {}; keeping the last snapshot", kind, reason);
    }

    private void apply(long seq, SemaphoreDescription description) {
        if (seq <= applied) {
            return; // an older read answered late: never step back
        }
        applied = seq;
        List<OwnersApplier.Owner> owners =
                new ArrayList<>(description.getOwnersList().size());
        for (SemaphoreDescription.Session owner : description.getOwnersList()) {
            owners.add(new OwnersApplier.Owner(owner.getId(), owner.getData()));
        }
        applier.apply(owners);
    }

    // ---- close ----

    /** Stops watching and ends the session; the table keeps its last snapshot. Idempotent. */
    @Override
    public void close() {
        if (!keeper.beginClose()) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.execute(() -> keeper.close(on -> CompletableFuture.completedFuture(null))
                .whenComplete((s, t) -> done.complete(null)));
        try {
            done.get(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.debug("Registry watcher session did not stop cleanly", e);
        }
        loop.close();
        connection.close();
        log.info("Registry watcher closed");
    }
}
