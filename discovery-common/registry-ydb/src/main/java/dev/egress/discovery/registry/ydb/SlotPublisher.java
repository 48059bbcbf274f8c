package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.YdbConnection.bounded;
import static dev.egress.discovery.registry.ydb.YdbConnection.reason;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.RegistrationState;
import dev.egress.discovery.registry.RegistryException;
import dev.egress.discovery.registry.ydb.RegistrationPhase.Connected;
import dev.egress.discovery.registry.ydb.RegistrationPhase.Held;
import dev.egress.discovery.registry.ydb.RegistrationPhase.Publishing;
import dev.egress.discovery.registry.ydb.RegistrationPhase.Settled;
import dev.egress.discovery.registry.ydb.RegistrationPhase.Slot;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.SemaphoreLease;
import tech.ydb.coordination.description.SemaphoreDescription;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.core.Result;
import tech.ydb.core.Status;
import tech.ydb.core.StatusCode;

/**
 * The slot half of a registration: makes the registry hold the latest announcement on the session that its
 * {@link SessionKeeper} keeps up, and moves the slot to each new session (a reattached predecessor keeps it
 * until the successor's first acquire: make-before-break). One acquire is in flight at a time and updates coalesce into the
 * next one (the semaphore's owner data is replaced by re-acquiring with the same count); every session
 * timeout a describe checks that the slot is still ours, because nothing tells a session that an operator
 * deleted the semaphore. Completes the callers' update futures once the registry holds their generation.
 *
 * <p>Runs only on the registration's loop.
 */
final class SlotPublisher implements SessionOwner {

    /** The registration logs under one name, whichever half speaks (operators filter on it). */
    private static final Logger log = LoggerFactory.getLogger(YdbRegistration.class);
    /** The semaphore's limit is Long.MAX_VALUE, so an acquire of 1 is granted at once; this only bounds a lost reply. */
    private static final Duration ACQUIRE_TIMEOUT = Duration.ofSeconds(10);

    private final RegistrationContext ctx;
    private final PendingUpdates pending = new PendingUpdates();

    SlotPublisher(RegistrationContext ctx) {
        this.ctx = ctx;
    }

    // ---- the session (SessionOwner) ----

    @Override
    public void ready(SessionPhase.Up up) {
        if (!(ctx.phase() instanceof Connected connected
                && connected.on(up.link().session()))) {
            ctx.moveTo(new RegistrationPhase.Unheld(
                    up.link())); // a new session; a semaphore found again keeps what it holds
            log.info(
                    "Border {} session {} is ready; publishing",
                    ctx.borderId(),
                    up.link().id());
        }
        publish();
    }

    @Override
    public void dropped() {
        ctx.moveTo(new RegistrationPhase.Detached());
    }

    @Override
    public void failed(SessionOwner.Failure failure) {
        if (failure == SessionOwner.Failure.LOST) {
            ctx.metrics.reregistration();
            ctx.report(RegistrationState.REGISTERING);
        } else {
            ctx.metrics.publishFailure();
            ctx.report(RegistrationState.FAILED);
        }
    }

    /**
     * Waits for the registry to hold a generation, then publishes the latest announcement.
     *
     * @param generation the generation the caller asked for
     * @param result     completes once the registry holds it (or a later one)
     */
    void enqueue(long generation, CompletableFuture<Announcement> result) {
        pending.add(generation, result);
        publish();
    }

    /** Fails every waiting update: the registration is closing. */
    void cancelPending() {
        pending.failUpTo(Long.MAX_VALUE, new CancellationException("registration closed"));
    }

    /** Makes the registry hold the latest announcement; a no-op while an acquire is in flight or no session is up. */
    void publish() {
        SessionPhase.Up up = ctx.keeper().ready();
        if (up == null
                || !(ctx.phase() instanceof Settled settled)
                || !settled.on(up.link().session())) {
            return; // no ready session (the keeper calls again), or the acquire in flight publishes again
        }
        CoordinationSession on = settled.link().session();
        Announcement target = ctx.desired();
        if (settled.held() != null && target.equals(settled.held().announcement())) {
            settle(settled.held());
            return;
        }
        byte[] data = ctx.writer.write(target);
        ctx.moveTo(new Publishing(settled, target, data));
        ctx.loop.when(bounded(on.acquireSemaphore(ctx.semaphore, 1, data, ACQUIRE_TIMEOUT)), (result, failure) -> {
            Connected current = ctx.currentOn(on);
            if (!(current instanceof Publishing publishing) || publishing.target() != target) {
                return; // the session was dropped or replaced meanwhile
            }
            if (failure == null && result.isSuccess()) {
                acquired(publishing, result.getValue());
            } else {
                ctx.moveTo(publishing.before());
                publishFailed(on, target, result, failure);
            }
        });
    }

    private void acquired(Publishing publishing, SemaphoreLease lease) {
        Announcement target = publishing.target();
        Slot slot = new Slot(lease, target, publishing.data());
        ctx.moveTo(new Held(publishing.link(), slot));
        if (publishing.held() == null) {
            log.info(
                    "Border {} registered with generation {} ({} IPs)",
                    target.borderId(),
                    target.generation(),
                    target.ips().size());
        } else {
            log.debug("Border {} published generation {}", target.borderId(), target.generation());
        }
        settle(slot);
        ctx.keeper().retire(); // the slot moved: a reattached predecessor can go
        publish(); // an update may have arrived meanwhile
    }

    private void publishFailed(
            CoordinationSession on, Announcement target, Result<SemaphoreLease> result, Throwable failure) {
        String reason = reason(result, failure);
        ctx.metrics.publishFailure();
        if (interruptedBySession(on, failure == null ? result.getStatus() : null)) {
            // The session listener takes over: RECONNECTED moves the slot, LOST re-registers.
            log.warn(
                    "Border {} publish of generation {} interrupted by the session ({}); waiting for it",
                    target.borderId(),
                    target.generation(),
                    reason);
            return;
        }
        if (failure != null && YdbConnection.cause(failure) instanceof TimeoutException) {
            // No answer at all: a half-open stream the SDK will not notice. Start over with a new session.
            ctx.keeper().failed("publish of generation " + target.generation() + ": " + reason);
            return;
        }
        StatusCode code = failure == null ? result.getStatus().getCode() : null;
        log.warn(
                "Border {} publish of generation {} failed: {}; retrying",
                target.borderId(),
                target.generation(),
                reason);
        if (code == StatusCode.BAD_REQUEST || code == StatusCode.PRECONDITION_FAILED) {
            // The registry will never take this content: tell the caller instead of letting it wait.
            pending.failUpTo(
                    target.generation(),
                    new RegistryException("registry refused generation %d of border %s: %s"
                            .formatted(target.generation(), target.borderId(), reason)));
        }
        ctx.report(RegistrationState.FAILED);
        // A deleted semaphore is recreated; anything else is retried as is (the keeper publishes once it exists).
        ctx.loop.schedule(
                () -> {
                    if (ctx.currentOn(on) != null) {
                        ctx.keeper().recheckSemaphore(on);
                    }
                },
                ctx.backoff.next());
    }

    /** The registry holds {@code slot}: complete what it covers and report the state. */
    private void settle(Slot slot) {
        ctx.backoff.reset();
        pending.heldUpTo(slot.announcement());
        if (slot.announcement().equals(ctx.desired())) {
            ctx.report(RegistrationState.REGISTERED);
        }
    }

    // ---- checking the slot ----

    /** Checks that the registry still holds our slot; runs every session timeout. */
    void selfCheck() {
        SessionPhase.Up up = ctx.keeper().ready();
        if (up != null && ctx.phase() instanceof Held held && held.on(up.link().session())) {
            verifySlot(held.link().session());
        }
    }

    /** Trusts only what describe says: re-acquires if our session is not an owner or its data differs. */
    private void verifySlot(CoordinationSession on) {
        ctx.loop.when(
                bounded(on.describeSemaphore(ctx.semaphore, DescribeSemaphoreMode.WITH_OWNERS)), (result, failure) -> {
                    Connected current = ctx.currentOn(on);
                    if (current == null) {
                        return;
                    }
                    if (failure != null || !result.isSuccess()) {
                        Status status = failure == null ? result.getStatus() : null;
                        if (interruptedBySession(on, status)) {
                            return; // the session listener takes over
                        }
                        log.warn(
                                "Border {} could not check its slot ({}); republishing",
                                ctx.borderId(),
                                reason(result, failure));
                        slotLost(current);
                        // NOT_FOUND: the semaphore itself is gone, so recreate it before acquiring again.
                        ctx.keeper().recheckSemaphore(on);
                        return;
                    }
                    Slot expected = current.held();
                    if (expected == null || !ownsWith(result.getValue(), on.getId(), expected.data())) {
                        log.warn("Border {} slot missing or changed; republishing", ctx.borderId());
                        slotLost(current);
                    }
                    publish();
                });
    }

    private void slotLost(Connected current) {
        if (current.held() != null) {
            ctx.metrics.reregistration();
            ctx.report(RegistrationState.REGISTERING);
            ctx.moveTo(current.withoutSlot());
        }
    }

    // ---- close ----

    /**
     * Ends the registration on the loop: fails what waits, releases the slot (so App sees it go even if the
     * stop is slow) and stops every session.
     *
     * @param done completes once the current session has stopped (or at once if there is none)
     */
    void release(CompletableFuture<Void> done) {
        Slot held = ctx.phase() instanceof Connected connected ? connected.held() : null;
        cancelPending();
        ctx.report(RegistrationState.CLOSED);
        ctx.keeper()
                .close(on -> held != null && on.getState().isConnected()
                        ? held.lease().release()
                        : CompletableFuture.completedFuture(null))
                .whenComplete((v, t) -> done.complete(null));
    }

    private static boolean ownsWith(SemaphoreDescription description, long sessionId, byte[] data) {
        for (SemaphoreDescription.Session owner : description.getOwnersList()) {
            if (owner.getId() == sessionId) {
                return Arrays.equals(owner.getData(), data);
            }
        }
        return false;
    }

    /** Whether a failure belongs to the session (reattaching or gone) rather than to the request. */
    private static boolean interruptedBySession(CoordinationSession on, Status status) {
        if (!on.getState().isConnected()) {
            return true;
        }
        StatusCode code = status == null ? null : status.getCode();
        return code == StatusCode.BAD_SESSION || code == StatusCode.SESSION_EXPIRED;
    }
}
