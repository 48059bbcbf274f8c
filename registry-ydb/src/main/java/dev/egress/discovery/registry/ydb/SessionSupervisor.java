package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.RegistrationState;
import dev.egress.discovery.registry.ydb.RegistrationPhase.BackingOff;
import dev.egress.discovery.registry.ydb.RegistrationPhase.Connected;
import dev.egress.discovery.registry.ydb.RegistrationPhase.Link;
import dev.egress.discovery.registry.ydb.RegistrationPhase.Opening;
import dev.egress.discovery.registry.ydb.RegistrationPhase.Unheld;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.SemaphoreLease;

/**
 * The session half of a registration: opens a coordination session, reacts to the SDK's session
 * states, backs off with full jitter after a failure or a lost session, moves the slot to a fresh session
 * after a reattach (make-before-break), and ends everything on close. What to publish on a session is
 * {@link SlotPublisher}'s business; it is told when a session is up.
 *
 * <p>Runs only on the registration's loop.
 */
final class SessionSupervisor {

    /** The registration logs under one name, whichever half speaks (operators filter on it). */
    private static final Logger log = LoggerFactory.getLogger(YdbRegistration.class);

    private final RegistrationContext ctx;
    private SlotPublisher publisher;

    SessionSupervisor(RegistrationContext ctx) {
        this.ctx = ctx;
    }

    void publishWith(SlotPublisher slots) {
        this.publisher = slots;
    }

    /** Opens the first session. */
    void start() {
        if (ctx.phase() instanceof RegistrationPhase.New) {
            open(null);
        }
    }

    /** A backoff ran out: opens the next session unless something else did meanwhile. */
    private void retry() {
        if (!ctx.closing() && ctx.phase() instanceof BackingOff backingOff) {
            open(backingOff.retiring());
        }
    }

    private void open(@Nullable CoordinationSession retiring) {
        CompletableFuture<CoordinationSession> attempt = ctx.connection.openSession(
                ctx.loop.sdkExecutor(), (from, state) -> ctx.loop.execute(() -> onSessionState(from, state)));
        ctx.moveTo(new Opening(attempt, retiring));
        ctx.loop.when(attempt, (opened, failure) -> {
            if (ctx.closing() || !(ctx.phase() instanceof Opening opening) || opening.attempt() != attempt) {
                return; // closed meanwhile: release() stops the session once it is open
            }
            if (failure != null) {
                failed(String.valueOf(YdbConnection.cause(failure)));
                return;
            }
            ctx.moveTo(new Unheld(Link.of(opened), opening.retiring()));
            log.info("Border {} session {} is up", ctx.borderId(), opened.getId());
            publisher.publish();
        });
    }

    private void onSessionState(CoordinationSession from, CoordinationSession.State state) {
        Connected current = ctx.currentOn(from);
        if (current == null) {
            return;
        }
        switch (state) {
            case RECONNECTING ->
                log.warn(
                        "Border {} session {} disconnected; reattaching (the server keeps the slot for {})",
                        ctx.borderId(),
                        from.getId(),
                        ctx.connection.settings().sessionTimeout());
            case RECONNECTED -> {
                // SDK 2.2.10 does not recover a reattached session from a second stream break: it stays
                // RECONNECTED over a dead stream and every request hangs. So move the slot to a fresh session,
                // make-before-break: the old session keeps the slot until the new one holds it too.
                log.info(
                        "Border {} session {} reattached; moving the slot to a new session",
                        ctx.borderId(),
                        from.getId());
                stop(current.retiring()); // a predecessor still retiring is superseded by this one
                open(from);
            }
            case LOST -> {
                log.warn(
                        "Border {} session {} lost; registering again with a new session",
                        ctx.borderId(),
                        current.link().id());
                ctx.metrics.reregistration();
                ctx.report(RegistrationState.REGISTERING);
                backOff(current, ctx.backoff.next());
            }
            default -> {
                // CONNECTING and CONNECTED are driven by open(); CLOSED only by us.
            }
        }
    }

    /**
     * A step failed for good (opening, a timed-out request, creating the semaphore): drops the session and
     * opens a new one after a backoff.
     *
     * @param reason what failed, for the log
     */
    void failed(String reason) {
        if (ctx.closing()) {
            return;
        }
        ctx.metrics.publishFailure();
        Duration delay = ctx.backoff.next();
        log.warn(
                "Border {} could not register: {}; retrying in {} ms (attempt {})",
                ctx.borderId(),
                reason,
                delay.toMillis(),
                ctx.backoff.attempts());
        ctx.report(RegistrationState.FAILED);
        backOff(ctx.phase(), delay);
    }

    /** Leaves {@code from}: stops its session (keeping a retiring one, which still holds the slot) and schedules the next open. */
    private void backOff(RegistrationPhase from, Duration delay) {
        CoordinationSession retiring = null;
        if (from instanceof Connected connected) {
            retiring = connected.retiring();
            // Stopping a lost session is a no-op; stopping a live one releases whatever it still holds.
            stop(connected.link().session());
        } else if (from instanceof Opening opening) {
            retiring = opening.retiring();
        } else if (from instanceof BackingOff backingOff) {
            retiring = backingOff.retiring();
            cancel(backingOff.retry());
        }
        ctx.moveTo(new BackingOff(ctx.loop.schedule(this::retry, delay), retiring));
    }

    /**
     * The successor holds the slot now: the retiring session can go.
     *
     * @param retiring the session the slot moved away from, or null
     * @param now      the session that holds it
     */
    void slotMoved(CoordinationSession retiring, Link now) {
        if (retiring != null) {
            log.info(
                    "Border {} slot moved to session {}; stopping session {}",
                    ctx.borderId(),
                    now.id(),
                    retiring.getId());
            stop(retiring);
        }
    }

    /**
     * Ends the registration on the loop: cancels what is pending, releases the slot (so App sees it go even
     * if the stop is slow) and stops every session.
     *
     * @param done completes once the current session has stopped (or at once if there is none)
     */
    void release(CompletableFuture<Void> done) {
        RegistrationPhase last = ctx.phase();
        ctx.moveTo(new RegistrationPhase.Closed());
        publisher.cancelPending();
        CoordinationSession session = null;
        SemaphoreLease lease = null;
        // Java 17 has no pattern switch; the phases are few and sealed.
        if (last instanceof Opening opening) {
            // Closed while a session was being opened: it holds nothing yet, but must not outlive us.
            opening.attempt().thenAccept(CoordinationSession::stop);
            stop(opening.retiring());
        } else if (last instanceof BackingOff backingOff) {
            cancel(backingOff.retry());
            stop(backingOff.retiring());
        } else if (last instanceof Connected connected) {
            session = connected.link().session();
            lease = connected.held() == null ? null : connected.held().lease();
            stop(connected.retiring());
        }
        ctx.report(RegistrationState.CLOSED);
        if (session == null) {
            done.complete(null);
            return;
        }
        CoordinationSession on = session;
        CompletableFuture<Void> released = lease != null && on.getState().isConnected()
                ? lease.release().exceptionally(t -> null)
                : CompletableFuture.completedFuture(null);
        long stoppedId = on.getId(); // the SDK forgets the id once stopped
        released.thenCompose(v -> on.stop()).whenComplete((status, failure) -> {
            log.info("Border {} released its slot and stopped session {}", ctx.borderId(), stoppedId);
            done.complete(null);
        });
    }

    private static void stop(CoordinationSession session) {
        if (session != null) {
            session.stop().exceptionally(t -> null);
        }
    }

    private static void cancel(ScheduledFuture<?> retry) {
        if (retry != null) {
            retry.cancel(false);
        }
    }
}
