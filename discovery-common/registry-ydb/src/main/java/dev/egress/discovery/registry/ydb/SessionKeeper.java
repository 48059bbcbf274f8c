package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.YdbConnection.bounded;
import static dev.egress.discovery.registry.ydb.YdbConnection.reason;

import dev.egress.discovery.registry.ydb.SessionPhase.BackingOff;
import dev.egress.discovery.registry.ydb.SessionPhase.Closed;
import dev.egress.discovery.registry.ydb.SessionPhase.Connected;
import dev.egress.discovery.registry.ydb.SessionPhase.Finding;
import dev.egress.discovery.registry.ydb.SessionPhase.Idle;
import dev.egress.discovery.registry.ydb.SessionPhase.Link;
import dev.egress.discovery.registry.ydb.SessionPhase.Opening;
import dev.egress.discovery.registry.ydb.SessionPhase.Up;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.core.Status;
import tech.ydb.core.StatusCode;

/**
 * Keeps one coordination session up for one registry participant, the App's watcher or a Border's publisher:
 * opens it, makes sure the semaphore exists (creates it, or, read-only, waits for someone to), reacts to the
 * SDK's session states, and backs off with full jitter ({@link Backoff}) after a failure or a lost session, so
 * that no failure leaves the participant without a session for longer than the backoff. What to do on the
 * session is the {@link SessionOwner}'s business: it is told when the session is ready and when what it has in
 * flight there no longer counts, and it reports back a request that got no answer ({@link #failed}) or that
 * found the semaphore missing ({@link #recheckSemaphore}).
 *
 * <p><b>The reattach workaround.</b> SDK 2.2.10 does not recover a reattached session from a second stream
 * break: it stays RECONNECTED over a dead stream and every request hangs. So a reattached session is replaced
 * at once, make-before-break: it becomes the {@linkplain SessionPhase#retiring() retiring} session, kept open
 * (a publisher's slot stays held by it) while a successor opens, until the owner {@linkplain #retire()
 * retires} it.
 *
 * <p>State is one {@link SessionPhase}, changed only on the participant's {@link RegistryLoop}; every method
 * runs there except {@link #closing()} and {@link #beginClose()}.
 */
final class SessionKeeper {

    private final YdbConnection connection;
    private final RegistryLoop loop;
    private final Backoff backoff;
    private final String who;
    private final Logger log;
    private final SessionOwner owner;

    private SessionPhase phase = new Idle(); // loop
    private boolean waitingLogged; // loop: the missing semaphore was reported (read-only)
    private volatile boolean closing;

    /**
     * @param backoff shared with the owner, which resets it on its own success
     * @param who     names the participant in logs ("Registry watcher", "Border border-a")
     * @param log     the participant's logger (operators filter on one name per participant)
     */
    SessionKeeper(
            YdbConnection connection, RegistryLoop loop, Backoff backoff, String who, Logger log, SessionOwner owner) {
        this.connection = connection;
        this.loop = loop;
        this.backoff = backoff;
        this.who = who;
        this.log = log;
        this.owner = owner;
    }

    /**
     * The current phase (loop).
     *
     * @return the phase
     */
    SessionPhase phase() {
        return phase;
    }

    /**
     * The connected phase of {@code session}, unless closing: what every late answer of a request on that
     * session checks before it acts.
     *
     * @param session the session a request went out on
     * @return the phase, or null if the answer is stale
     */
    @Nullable
    Connected on(CoordinationSession session) {
        return !closing && phase instanceof Connected connected && connected.on(session) ? connected : null;
    }

    /**
     * The phase to read or publish on now.
     *
     * @return the phase if the semaphore exists and the session is connected, else null
     */
    @Nullable
    Up ready() {
        return !closing
                        && phase instanceof Up up
                        && up.link().session().getState().isConnected()
                ? up
                : null;
    }

    /** Opens the first session. */
    void start() {
        if (phase instanceof Idle) {
            open(null);
        }
    }

    /** The safety net (the watcher's poll tick): looks for a missing semaphore again now. */
    void tick() {
        if (!closing && phase instanceof Finding finding) {
            find(finding);
        }
    }

    private void moveTo(SessionPhase next) {
        if (log.isDebugEnabled()) {
            log.debug("{} session phase {} -> {}", who, phase, next);
        }
        phase = next;
    }

    private void open(@Nullable CoordinationSession retiring) {
        CompletableFuture<CoordinationSession> attempt = connection.openSession(
                loop.sdkExecutor(), (from, state) -> loop.execute(() -> onSessionState(from, state)));
        moveTo(new Opening(attempt, retiring));
        owner.link(LinkState.CONNECTING);
        loop.when(attempt, (opened, failure) -> {
            if (closing || !(phase instanceof Opening opening) || opening.attempt() != attempt) {
                return; // closed meanwhile: close() stops the session once it is open
            }
            if (failure != null) {
                failed(String.valueOf(YdbConnection.cause(failure)));
                return;
            }
            Link link = Link.of(opened);
            log.info("{} session {} is up", who, link.id());
            owner.link(LinkState.CONNECTED);
            if (connection.settings().createIfMissing()) {
                ready(new Up(link, opening.retiring())); // openSession created the semaphore
            } else {
                Finding finding = new Finding(link, opening.retiring());
                moveTo(finding); // opened without it: find it first
                find(finding);
            }
        });
    }

    private void ready(Up up) {
        moveTo(up);
        owner.ready(up);
    }

    private void onSessionState(CoordinationSession from, CoordinationSession.State state) {
        Connected current = on(from);
        if (current == null) {
            return; // a retiring or replaced session: its fate no longer matters
        }
        switch (state) {
            case RECONNECTING -> {
                owner.link(LinkState.RECONNECTING);
                log.warn(
                        "{} session {} disconnected; reattaching (the server keeps it for {})",
                        who,
                        current.link().id(),
                        connection.settings().sessionTimeout());
            }
            case RECONNECTED -> {
                // The SDK 2.2.10 workaround (class comment): replace the reattached session, make-before-break.
                log.info(
                        "{} session {} reattached; replacing it with a new session",
                        who,
                        current.link().id());
                stop(current.retiring()); // a predecessor still retiring is superseded by this one
                dropped();
                open(from);
            }
            case LOST -> {
                owner.failed(SessionOwner.Failure.LOST);
                Duration delay = backoff.next();
                log.warn(
                        "{} session {} lost; opening a new one in {} ms",
                        who,
                        current.link().id(),
                        delay.toMillis());
                backOff(current, delay);
            }
            default -> {
                // CONNECTING and CONNECTED are driven by open(); CLOSED only by us.
            }
        }
    }

    /**
     * The session failed (could not open, or a request got no answer within the step timeout: a half-open
     * stream that the SDK will never notice): drops it and opens another after a backoff.
     *
     * @param reason what failed, for the log
     */
    void failed(String reason) {
        if (closing) {
            return;
        }
        owner.failed(SessionOwner.Failure.FAILED);
        Duration delay = backoff.next();
        log.warn(
                "{} session failed: {}; retrying in {} ms (attempt {})",
                who,
                reason,
                delay.toMillis(),
                backoff.attempts());
        backOff(phase, delay);
    }

    /** Leaves {@code from}: stops its session (keeping a retiring one) and schedules the next open. */
    private void backOff(SessionPhase from, Duration delay) {
        if (from instanceof Connected connected) {
            // Stopping a lost session is a no-op; stopping a live one releases whatever it still holds.
            stop(connected.link().session());
        } else if (from instanceof BackingOff backingOff) {
            cancel(backingOff.retry());
        }
        moveTo(new BackingOff(loop.schedule(this::retry, delay), from.retiring()));
        dropped();
    }

    /** A backoff ran out: opens the next session unless something else did meanwhile. */
    private void retry() {
        if (!closing && phase instanceof BackingOff backingOff) {
            open(backingOff.retiring());
        }
    }

    private void dropped() {
        owner.dropped();
        owner.link(closing ? LinkState.CLOSED : LinkState.DISCONNECTED);
    }

    /**
     * A request found the semaphore missing (never created yet, or deleted) or could not tell: find it again
     * (creating it where allowed) on the same session; the owner is told {@link SessionOwner#ready} once it
     * exists.
     *
     * @param on the session the request ran on
     */
    void recheckSemaphore(CoordinationSession on) {
        Connected current = on(on);
        if (current != null) {
            Finding finding = new Finding(current.link(), current.retiring());
            moveTo(finding);
            find(finding);
        }
    }

    /** Creates the semaphore (or, read-only, looks for it); on failure keeps the session and tries again. */
    private void find(Finding finding) {
        CoordinationSession on = finding.link().session();
        loop.when(bounded(connection.ensureSemaphore(on)), (status, failure) -> {
            if (closing || phase != finding) {
                return;
            }
            if (failure == null && status.isSuccess()) {
                if (waitingLogged) {
                    waitingLogged = false;
                    log.info(
                            "{}: semaphore {} exists now",
                            who,
                            connection.settings().semaphore());
                }
                ready(new Up(finding.link(), finding.retiring()));
                return;
            }
            owner.failed(SessionOwner.Failure.SEMAPHORE);
            logFindFailure(status, failure);
            loop.schedule(
                    () -> {
                        if (!closing && phase == finding) {
                            find(finding);
                        }
                    },
                    backoff.next());
        });
    }

    private void logFindFailure(@Nullable Status status, @Nullable Throwable failure) {
        boolean createIfMissing = connection.settings().createIfMissing();
        String semaphore = connection.settings().semaphore();
        if (!createIfMissing && failure == null && status.getCode() == StatusCode.NOT_FOUND) {
            if (!waitingLogged) {
                waitingLogged = true;
                log.warn(
                        "{}: semaphore {} does not exist; waiting for a Border to create it "
                                + "(egress.registry.create-if-missing=false)",
                        who,
                        semaphore);
            }
            return;
        }
        log.warn(
                "{} could not {} semaphore {}: {}; retrying",
                who,
                createIfMissing ? "create" : "find",
                semaphore,
                reason(status, failure));
    }

    /** The successor is in use now (a publisher's slot moved to it): the retiring session can go. */
    void retire() {
        if (phase instanceof Up up && up.retiring() != null) {
            log.info(
                    "{} moved to {}; stopping session {}",
                    who,
                    up.link(),
                    up.retiring().getId());
            stop(up.retiring());
            moveTo(new Up(up.link(), null));
        }
    }

    /**
     * Whether the participant is closing; from any thread.
     *
     * @return true once {@link #beginClose()} was called
     */
    boolean closing() {
        return closing;
    }

    /**
     * Marks the participant closing, so late callbacks stand down; from any thread.
     *
     * @return false if it was closing already
     */
    synchronized boolean beginClose() {
        if (closing) {
            return false;
        }
        closing = true;
        return true;
    }

    /**
     * Ends everything on the loop: cancels what is pending, stops the retiring session and an opening one,
     * and stops the current session after {@code beforeStop} (a publisher releases its slot there, so App sees
     * it go even if the stop is slow).
     *
     * @param beforeStop runs on the connected session before it is stopped
     * @return completes once the current session has stopped, or at once if there is none (never exceptionally)
     */
    CompletableFuture<Void> close(Function<CoordinationSession, CompletableFuture<?>> beforeStop) {
        SessionPhase last = phase;
        moveTo(new Closed());
        stop(last.retiring());
        if (last instanceof Opening opening) {
            // Closed while a session was being opened: it holds nothing yet, but must not outlive us.
            opening.attempt().thenAccept(CoordinationSession::stop);
        } else if (last instanceof BackingOff backingOff) {
            cancel(backingOff.retry());
        }
        dropped();
        if (!(last instanceof Connected connected)) {
            return CompletableFuture.completedFuture(null);
        }
        CoordinationSession on = connected.link().session();
        return beforeStop
                .apply(on)
                .exceptionally(t -> null)
                .thenCompose(v -> on.stop())
                .handle((status, failure) -> {
                    log.info("{} stopped session {}", who, connected.link().id());
                    return null;
                });
    }

    private static void stop(@Nullable CoordinationSession session) {
        if (session != null) {
            session.stop().exceptionally(t -> null);
        }
    }

    private static void cancel(@Nullable ScheduledFuture<?> retry) {
        if (retry != null) {
            retry.cancel(false);
        }
    }
}
