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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
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
 * and its age grows.
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
    private final boolean createIfMissing;
    private final WatcherMetrics metrics;
    private final OwnersApplier applier;
    private final Backoff backoff = new Backoff(Backoff.BASE, RECONNECT_CAP);
    private volatile boolean closing;

    private CoordinationSession session; // loop
    private long sessionId = -1; // loop: its id, kept for logs (the SDK resets it once LOST)
    private boolean opening; // loop: a session is being opened
    private boolean sessionReady; // loop: the semaphore exists (false after a NOT_FOUND until recreated)
    private Object watch; // loop: token of the armed watch, null if none
    private boolean polling; // loop: a poll is in flight
    private ScheduledFuture<?> retry; // loop: the pending reconnect
    private long sent; // loop: sequence number of the last read sent
    private long applied; // loop: sequence number of the last read applied
    private boolean waitingLogged; // loop: the missing semaphore was reported (read-only mode)

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
        this.createIfMissing = settings.createIfMissing();
        this.metrics = new WatcherMetrics(meters);
        this.applier = new OwnersApplier(reader, table, clock, metrics);
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
        watcher.loop.execute(watcher::openSession);
        watcher.loop.every(settings.pollInterval(), watcher::tick);
        return watcher;
    }

    // ---- session lifecycle (loop) ----

    private void openSession() {
        retry = null;
        if (closing || session != null || opening) {
            return;
        }
        opening = true;
        metrics.link(LinkState.CONNECTING);
        loop.when(
                connection.openSession(
                        loop.sdkExecutor(), (from, state) -> loop.execute(() -> onSessionState(from, state))),
                (opened, failure) -> {
                    opening = false;
                    if (failure != null) {
                        sessionFailed(String.valueOf(YdbConnection.cause(failure)));
                        return;
                    }
                    if (closing) {
                        opened.stop();
                        return;
                    }
                    session = opened;
                    sessionId = opened.getId();
                    backoff.reset();
                    metrics.link(LinkState.CONNECTED);
                    log.info("Registry watcher session {} is up", opened.getId());
                    if (!createIfMissing) {
                        ensureSemaphore(opened); // opened without it: find it first
                        return;
                    }
                    sessionReady = true;
                    arm();
                    poll();
                });
    }

    /**
     * After the semaphore was found missing: create it again (or, read-only, look whether a Border has
     * created it yet), then read. Until then the session stays up and every tick tries again.
     */
    private void ensureSemaphore(CoordinationSession on) {
        loop.when(bounded(connection.ensureSemaphore(on)), (status, failure) -> {
            if (on != session) {
                return;
            }
            if (failure != null || !status.isSuccess()) {
                // Keep the session; the next tick tries again.
                metrics.pollFailure();
                if (!createIfMissing && failure == null && status.getCode() == StatusCode.NOT_FOUND) {
                    if (!waitingLogged) {
                        waitingLogged = true;
                        log.warn(
                                "Registry semaphore {} does not exist; waiting for a Border to create it (this App has "
                                        + "egress.registry.create-if-missing=false)",
                                semaphore);
                    }
                    return;
                }
                log.warn(
                        "Could not {} semaphore {}: {}; retrying on the next poll",
                        createIfMissing ? "create" : "find",
                        semaphore,
                        reason(status, failure));
                return;
            }
            if (waitingLogged) {
                waitingLogged = false;
                log.info("Registry semaphore {} exists now; watching it", semaphore);
            }
            sessionReady = true;
            arm();
            poll();
        });
    }

    private void onSessionState(CoordinationSession from, CoordinationSession.State state) {
        if (from != session || closing) {
            return;
        }
        switch (state) {
            case RECONNECTING -> {
                metrics.link(LinkState.RECONNECTING);
                log.warn("Registry watcher session {} disconnected; reattaching", from.getId());
            }
            case RECONNECTED -> {
                // SDK 2.2.10 does not recover a reattached session from a second stream break (it stays
                // RECONNECTED over a dead stream and requests hang), so replace it at once; the table keeps
                // its snapshot meanwhile.
                log.info("Registry watcher session {} reattached; replacing it with a new session", from.getId());
                dropSession();
                openSession();
            }
            case LOST -> {
                metrics.sessionFailure();
                log.warn("Registry watcher session {} lost; opening a new one (keeping the last snapshot)", sessionId);
                dropSession();
                scheduleReconnect();
            }
            default -> {
                // CONNECTING/CONNECTED are driven by openSession; CLOSED only by us.
            }
        }
    }

    private void sessionFailed(String reason) {
        if (closing) {
            return;
        }
        metrics.sessionFailure();
        dropSession();
        Duration delay = scheduleReconnect();
        log.warn(
                "Registry watcher session failed: {}; retrying in {} ms (keeping the last snapshot)",
                reason,
                delay.toMillis());
    }

    private Duration scheduleReconnect() {
        if (retry != null) {
            retry.cancel(false);
        }
        Duration delay = backoff.next();
        retry = loop.schedule(this::openSession, delay);
        return delay;
    }

    private CompletableFuture<?> dropSession() {
        CoordinationSession old = session;
        session = null;
        sessionReady = false;
        watch = null;
        polling = false;
        metrics.link(closing ? LinkState.CLOSED : LinkState.DISCONNECTED);
        return old == null
                ? CompletableFuture.completedFuture(null)
                : old.stop().exceptionally(t -> null);
    }

    // ---- reads (loop) ----

    /** The supervisor and safety net: runs every poll interval whatever happened before. */
    private void tick() {
        if (closing) {
            return;
        }
        if (session == null) {
            metrics.pollFailure();
            if (!opening && retry == null) {
                openSession();
            }
            return;
        }
        if (!sessionReady || !session.getState().isConnected()) {
            metrics.pollFailure();
            if (!sessionReady && !opening) {
                ensureSemaphore(session);
            }
            return;
        }
        arm();
        poll();
    }

    private void arm() {
        CoordinationSession on = session;
        if (closing
                || watch != null
                || on == null
                || !sessionReady
                || !on.getState().isConnected()) {
            return;
        }
        Object token = new Object();
        watch = token;
        long seq = ++sent;
        CompletableFuture<Result<SemaphoreWatcher>> request =
                on.watchSemaphore(semaphore, DescribeSemaphoreMode.WITH_OWNERS, WatchSemaphoreMode.WATCH_OWNERS);
        loop.when(bounded(request), (result, failure) -> {
            if (on != session || watch != token) {
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
        CoordinationSession on = session;
        if (closing || polling || on == null || !sessionReady || !on.getState().isConnected()) {
            return;
        }
        polling = true;
        long seq = ++sent;
        loop.when(bounded(on.describeSemaphore(semaphore, DescribeSemaphoreMode.WITH_OWNERS)), (result, failure) -> {
            if (on != session) {
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
            sessionFailed(kind + ": " + reason);
            return;
        }
        if (failure == null && result.getStatus().getCode() == StatusCode.NOT_FOUND) {
            // Never created yet, or deleted: recreate it (or wait for a Border to), then watch again.
            if (createIfMissing) {
                log.warn("Registry semaphore {} not found; creating it", semaphore);
            }
            sessionReady = false;
            ensureSemaphore(on);
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
        if (closing) {
            return;
        }
        closing = true;
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.execute(() -> dropSession().whenComplete((s, t) -> done.complete(null)));
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

    // ---- helpers ----

}
