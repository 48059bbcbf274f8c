package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.YdbConnection.bounded;
import static dev.egress.discovery.registry.ydb.YdbConnection.reason;

import dev.egress.discovery.registry.RegistrySettings;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.core.StatusCode;

/**
 * The session half of the registry watcher: opens a coordination session, makes sure the semaphore exists
 * (creates it, or, read-only, waits for a Border to), reacts to the SDK's session states, backs off with
 * jitter after a failure or a lost session, and on every poll tick re-opens what is missing, so no failure
 * can leave the watcher idle. What to read on a ready session is {@link YdbRegistryWatcher}'s business: it
 * is told through {@code onReady} when reads can begin and through {@code onDropped} when the reads in
 * flight no longer count, and it reports back a read that timed out or found the semaphore missing. A
 * class of its own so that the watcher is only about reads, as a registration's {@link SessionSupervisor}
 * is apart from its {@link SlotPublisher}.
 *
 * <p>Runs only on the watcher's loop, except {@link #closing()} and {@link #beginClose()}.
 */
final class WatcherSupervisor {

    /** The watcher logs under one name, whichever half speaks (operators filter on it). */
    private static final Logger log = LoggerFactory.getLogger(YdbRegistryWatcher.class);
    /** Apps are few; reconnect faster than Borders, but still with jitter. */
    private static final Duration RECONNECT_CAP = Duration.ofSeconds(5);

    private final YdbConnection connection;
    private final RegistryLoop loop;
    private final String semaphore;
    private final boolean createIfMissing;
    private final WatcherMetrics metrics;
    private final Runnable onReady;
    private final Runnable onDropped;
    private final Backoff backoff = new Backoff(Backoff.BASE, RECONNECT_CAP);
    private volatile boolean closing;

    private CoordinationSession session;
    private long sessionId = -1; // its id, kept for logs (the SDK resets it once LOST)
    private boolean opening; // a session is being opened
    private boolean sessionReady; // the semaphore exists (false after a NOT_FOUND until recreated)
    private ScheduledFuture<?> retry; // the pending reconnect
    private boolean waitingLogged; // the missing semaphore was reported (read-only mode)

    /**
     * @param onReady   starts the reads on a ready session (the watch and a poll)
     * @param onDropped forgets the reads in flight on a dropped session
     */
    WatcherSupervisor(
            YdbConnection connection,
            RegistryLoop loop,
            RegistrySettings settings,
            WatcherMetrics metrics,
            Runnable onReady,
            Runnable onDropped) {
        this.connection = connection;
        this.loop = loop;
        this.semaphore = settings.semaphore();
        this.createIfMissing = settings.createIfMissing();
        this.metrics = metrics;
        this.onReady = onReady;
        this.onDropped = onDropped;
    }

    /** Whether the watcher is closing; from any thread. */
    boolean closing() {
        return closing;
    }

    /**
     * The session reads go to.
     *
     * @return the current session, null if none
     */
    @Nullable
    CoordinationSession current() {
        return session;
    }

    /**
     * The session to read on now.
     *
     * @return the current session if the semaphore exists and the session is connected, else null
     */
    @Nullable
    CoordinationSession ready() {
        CoordinationSession on = session;
        if (closing || on == null || !sessionReady || !on.getState().isConnected()) {
            return null;
        }
        return on;
    }

    /** Opens a session unless one is open or being opened. */
    void open() {
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
                        failed(String.valueOf(YdbConnection.cause(failure)));
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
                    onReady.run();
                });
    }

    /** The supervisor and safety net: runs every poll interval whatever happened before. */
    void tick() {
        if (closing) {
            return;
        }
        if (session == null) {
            metrics.pollFailure();
            if (!opening && retry == null) {
                open();
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
        onReady.run();
    }

    /**
     * A read found the semaphore missing (never created yet, or deleted): recreate it (or wait for a Border
     * to), then read again.
     *
     * @param on the session the read ran on
     */
    void semaphoreMissing(CoordinationSession on) {
        if (createIfMissing) {
            log.warn("Registry semaphore {} not found; creating it", semaphore);
        }
        sessionReady = false;
        ensureSemaphore(on);
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
            onReady.run();
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
                drop();
                open();
            }
            case LOST -> {
                metrics.sessionFailure();
                log.warn("Registry watcher session {} lost; opening a new one (keeping the last snapshot)", sessionId);
                drop();
                scheduleReconnect();
            }
            default -> {
                // CONNECTING/CONNECTED are driven by open(); CLOSED only by us.
            }
        }
    }

    /**
     * The session failed (could not open, or a read got no answer within the step timeout: a half-open
     * stream that the SDK will never notice): drop it and open another after a backoff.
     *
     * @param reason what failed, for the log
     */
    void failed(String reason) {
        if (closing) {
            return;
        }
        metrics.sessionFailure();
        drop();
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
        retry = loop.schedule(this::open, delay);
        return delay;
    }

    /**
     * Marks the watcher closing; from any thread.
     *
     * @return false if it was closing already
     */
    boolean beginClose() {
        if (closing) {
            return false;
        }
        closing = true;
        return true;
    }

    /**
     * Forgets the session and its reads, and stops it.
     *
     * @return completes when the session has stopped (never exceptionally)
     */
    CompletableFuture<?> drop() {
        CoordinationSession old = session;
        session = null;
        sessionReady = false;
        onDropped.run();
        metrics.link(closing ? LinkState.CLOSED : LinkState.DISCONNECTED);
        return old == null
                ? CompletableFuture.completedFuture(null)
                : old.stop().exceptionally(t -> null);
    }
}
