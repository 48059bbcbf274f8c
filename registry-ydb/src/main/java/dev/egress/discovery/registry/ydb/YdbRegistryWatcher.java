package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.YdbConnection.bounded;
import static dev.egress.discovery.registry.ydb.YdbConnection.reason;

import dev.egress.discovery.AnnouncementReader;
import dev.egress.discovery.RoutingTable;
import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.RegistryWatcher;
import dev.egress.discovery.trust.AnnouncementVerifier;
import io.grpc.ClientInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * change), and a poll every {@code pollInterval} is the safety net. The poll tick is also the supervisor: it
 * re-opens a missing session and re-arms a missing watch, so no failure can leave the watcher idle. Every
 * successful read goes to the {@link RoutingTable}; failures never reach it, so the last good snapshot stays
 * and its age grows. This class holds the reads; the session they run on (opening, the semaphore's
 * existence, reconnects, the tick) is its {@link WatcherSupervisor}'s.
 *
 * <p>Fields marked "loop" are touched only on the watcher's {@link RegistryLoop}.
 */
public final class YdbRegistryWatcher implements RegistryWatcher {

    private static final Logger log = LoggerFactory.getLogger(YdbRegistryWatcher.class);

    private final YdbConnection connection;
    private final RegistryLoop loop;
    private final String semaphore;
    private final WatcherMetrics metrics;
    private final OwnersApplier applier;
    private final WatcherSupervisor supervisor;

    private Object watch; // loop: token of the armed watch, null if none
    private boolean polling; // loop: a poll is in flight
    private long sent; // loop: sequence number of the last read sent
    private long applied; // loop: sequence number of the last read applied

    private YdbRegistryWatcher(
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
        this.supervisor = new WatcherSupervisor(connection, loop, settings, metrics, this::readAll, this::readsDropped);
    }

    /**
     * Starts watching, reading owners without verification ({@code insecure-local} and tests).
     * Returns at once; the table becomes ready with the first successful read.
     *
     * @param settings where the registry is
     * @param table    the table to keep current
     * @param meters   metrics registry
     * @return the running watcher
     */
    public static YdbRegistryWatcher start(RegistrySettings settings, RoutingTable table, MeterRegistry meters) {
        return start(settings, table, meters, AnnouncementVerifier.unverified());
    }

    /**
     * Starts watching. Returns at once; the table becomes ready with the first successful read.
     *
     * @param settings where the registry is
     * @param table    the table to keep current
     * @param meters   metrics registry
     * @param reader   reads and verifies each owner's data (production: an {@link AnnouncementVerifier})
     * @return the running watcher
     */
    public static YdbRegistryWatcher start(
            RegistrySettings settings, RoutingTable table, MeterRegistry meters, AnnouncementReader reader) {
        return start(settings, table, meters, reader, List.of());
    }

    /** As {@link #start(RegistrySettings, RoutingTable, MeterRegistry)}, with gRPC interceptors (tests cut streams with one). */
    static YdbRegistryWatcher start(
            RegistrySettings settings, RoutingTable table, MeterRegistry meters, List<ClientInterceptor> interceptors) {
        return start(settings, table, meters, AnnouncementVerifier.unverified(), interceptors);
    }

    private static YdbRegistryWatcher start(
            RegistrySettings settings,
            RoutingTable table,
            MeterRegistry meters,
            AnnouncementReader reader,
            List<ClientInterceptor> interceptors) {
        YdbRegistryWatcher watcher = new YdbRegistryWatcher(
                Objects.requireNonNull(settings, "settings"),
                Objects.requireNonNull(table, "table"),
                Objects.requireNonNull(meters, "meters"),
                Clock.systemUTC(),
                Objects.requireNonNull(reader, "reader"),
                interceptors);
        log.info(
                "Watching registry {}/{} at {} (poll every {})",
                settings.node(),
                settings.semaphore(),
                settings.connectionString(),
                settings.pollInterval());
        watcher.loop.execute(watcher.supervisor::open);
        watcher.loop.every(settings.pollInterval(), watcher.supervisor::tick);
        return watcher;
    }

    // ---- reads (loop) ----

    /** Starts the reads on a ready session: arms the watch (unless armed) and polls (unless a poll is out). */
    private void readAll() {
        arm();
        poll();
    }

    /** The session was dropped: its watch and poll no longer count. */
    private void readsDropped() {
        watch = null;
        polling = false;
    }

    private void arm() {
        CoordinationSession on = supervisor.ready();
        if (watch != null || on == null) {
            return;
        }
        Object token = new Object();
        watch = token;
        long seq = ++sent;
        CompletableFuture<Result<SemaphoreWatcher>> request =
                on.watchSemaphore(semaphore, DescribeSemaphoreMode.WITH_OWNERS, WatchSemaphoreMode.WATCH_OWNERS);
        loop.when(bounded(request), (result, failure) -> {
            if (on != supervisor.current() || watch != token) {
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
        CoordinationSession on = supervisor.ready();
        if (polling || on == null) {
            return;
        }
        polling = true;
        long seq = ++sent;
        loop.when(bounded(on.describeSemaphore(semaphore, DescribeSemaphoreMode.WITH_OWNERS)), (result, failure) -> {
            if (on != supervisor.current()) {
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
            supervisor.failed(kind + ": " + reason);
            return;
        }
        if (failure == null && result.getStatus().getCode() == StatusCode.NOT_FOUND) {
            supervisor.semaphoreMissing(on);
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
        if (!supervisor.beginClose()) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.execute(() -> supervisor.drop().whenComplete((s, t) -> done.complete(null)));
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
