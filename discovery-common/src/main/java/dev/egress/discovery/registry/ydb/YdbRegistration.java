package dev.egress.discovery.registry.ydb;

import static dev.egress.discovery.registry.ydb.YdbConnection.bounded;
import static dev.egress.discovery.registry.ydb.YdbConnection.reason;

import dev.egress.discovery.Announcement;
import dev.egress.discovery.AnnouncementWriter;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import dev.egress.discovery.registry.RegistryException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
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
 * One Border's slot in the registry semaphore, kept true by a state machine that runs on its own
 * {@link RegistryLoop}: open a session, create the semaphore, acquire count 1 with the announcement as
 * owner data; republish by re-acquiring with the same count; after a reattach move the slot to a new
 * session (make-before-break, see {@link #onSessionState}); every session timeout check that the slot is
 * still ours (describe WITH_OWNERS, re-acquire if not); after a lost session start over with a new
 * session, backing off with full jitter. The announcement registered is always the latest one, so an
 * update issued while re-registering is not lost.
 *
 * <p>Fields marked "loop" are touched only on the loop thread.
 */
final class YdbRegistration implements Registration {

    private static final Logger log = LoggerFactory.getLogger(YdbRegistration.class);
    /** The semaphore's limit is Long.MAX_VALUE, so an acquire of 1 is granted at once; this only bounds a lost reply. */
    private static final Duration ACQUIRE_TIMEOUT = Duration.ofSeconds(10);
    /** How long close() waits for the release and the session stop. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final YdbConnection connection;
    private final RegistryLoop loop;
    private final AnnouncementWriter writer;
    private final Clock clock;
    private final String semaphore;
    private final RegistrationMetrics metrics;
    private final Consumer<YdbRegistration> onClosed;
    private final List<Consumer<RegistrationState>> listeners = new CopyOnWriteArrayList<>();
    private final Backoff backoff = new Backoff(Backoff.BASE, Backoff.CAP);

    /** Guarded by {@code this}: stamping must be atomic so concurrent updates get distinct generations. */
    private Announcement desired;
    private volatile RegistrationState state = RegistrationState.REGISTERING;
    private volatile boolean closing;

    private CoordinationSession session;            // loop: the current session, null between sessions
    private long sessionId = -1;                    // loop: its id, kept for logs (the SDK resets it once LOST)
    private CoordinationSession retiring;           // loop: a reattached session that holds the slot until its successor does
    private CompletableFuture<CoordinationSession> opening; // loop: the session being opened, null if none
    private boolean sessionReady;                   // loop: the session is connected and the semaphore exists
    private SemaphoreLease lease;                   // loop: our slot in the current session
    private CoordinationSession acquiringOn;        // loop: the session an acquire is in flight on
    private Announcement held;                      // loop: what the registry holds for us (null = nothing)
    private byte[] heldData;                        // loop: the exact owner data of held (signatures differ per write)
    private ScheduledFuture<?> retry;               // loop: the pending re-registration
    private final PendingUpdates pending = new PendingUpdates(); // loop

    YdbRegistration(YdbConnection connection, Announcement initial, AnnouncementWriter writer, Clock clock,
                    RegistrationMetrics metrics, Consumer<YdbRegistration> onClosed) {
        this.connection = connection;
        this.writer = writer;
        this.clock = clock;
        this.metrics = metrics;
        this.onClosed = onClosed;
        this.semaphore = connection.settings().semaphore();
        // Validate the size now: an announcement the registry can never hold is the caller's bug.
        this.desired = stamp(initial, initial.generation() - 1);
        this.loop = new RegistryLoop("egress-registration-" + initial.borderId().value() + "-" + System.identityHashCode(this));
    }

    void start() {
        log.info("Registering border {} in {}/{}", desired.borderId(), connection.settings().node(), semaphore);
        loop.execute(this::openSession);
        // Nothing tells a session that its slot vanished (an operator's forced delete of the semaphore drops
        // owners silently), so check now and then; a describe per session timeout costs the server nothing.
        Duration sessionTimeout = connection.settings().sessionTimeout();
        loop.every(sessionTimeout.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : sessionTimeout,
                this::selfCheck);
    }

    @Override
    public synchronized Announcement current() {
        return desired;
    }

    @Override
    public CompletableFuture<Announcement> update(Announcement next) {
        CompletableFuture<Announcement> result = new CompletableFuture<>();
        if (closing) {
            result.completeExceptionally(new IllegalStateException("registration closed"));
            return result;
        }
        Announcement stamped;
        synchronized (this) {
            if (!next.borderId().equals(desired.borderId())) {
                throw new IllegalArgumentException("borderId: %s (expected: %s, the registered Border)"
                        .formatted(next.borderId(), desired.borderId()));
            }
            stamped = stamp(next, desired.generation());
            desired = stamped;
        }
        loop.execute(() -> {
            if (closing) {
                result.completeExceptionally(new IllegalStateException("registration closed"));
                return;
            }
            pending.add(stamped.generation(), result);
            publish();
        });
        return result;
    }

    @Override
    public RegistrationState state() {
        return state;
    }

    @Override
    public void onStateChange(Consumer<RegistrationState> listener) {
        listeners.add(listener);
    }

    private Announcement stamp(Announcement content, long previousGeneration) {
        Announcement stamped = content.republished(previousGeneration, clock.instant());
        writer.write(stamped); // throws if it exceeds the payload limit
        return stamped;
    }

    private synchronized Announcement desired() {
        return desired;
    }

    // ---- session lifecycle (loop) ----

    private void openSession() {
        retry = null;
        if (closing || session != null || opening != null) {
            return;
        }
        opening = connection.openSession(loop.sdkExecutor(), (from, state) -> loop.execute(() -> onSessionState(from, state)));
        loop.when(opening, (opened, failure) -> {
                    opening = null;
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
                    sessionReady = true;
                    log.info("Border {} session {} is up", desired().borderId(), opened.getId());
                    publish();
                });
    }

    /** After the semaphore was found missing: create it again, then publish. */
    private void createSemaphoreAndPublish(CoordinationSession on) {
        loop.when(bounded(connection.ensureSemaphore(on)), (status, failure) -> {
            if (on != session) {
                return;
            }
            if (succeeded(status, failure)) {
                publish();
            } else if (interruptedBySession(on, status)) {
                // Keep the session (and any slot the server still holds); the session listener takes over.
                log.warn("Border {}: creating semaphore {} interrupted by the session ({})", desired().borderId(),
                        semaphore, reason(status, failure));
            } else {
                failed("create semaphore " + semaphore + ": " + reason(status, failure));
            }
        });
    }

    private void onSessionState(CoordinationSession from, CoordinationSession.State sessionState) {
        if (from != session || closing) {
            return;
        }
        switch (sessionState) {
            case RECONNECTING -> log.warn("Border {} session {} disconnected; reattaching (the server keeps the slot for {})",
                    desired().borderId(), from.getId(), connection.settings().sessionTimeout());
            case RECONNECTED -> {
                // SDK 2.2.10 does not recover a reattached session from a second stream break: it stays
                // RECONNECTED over a dead stream and every request hangs. So move the slot to a fresh session,
                // make-before-break: the old session keeps the slot until the new one holds it too.
                log.info("Border {} session {} reattached; moving the slot to a new session", desired().borderId(), from.getId());
                retire(from);
                openSession();
            }
            case LOST -> {
                log.warn("Border {} session {} lost; registering again with a new session", desired().borderId(), sessionId);
                metrics.reregistration();
                setState(RegistrationState.REGISTERING);
                dropSession();
                scheduleRetry();
            }
            default -> {
                // CONNECTING and CONNECTED are driven by openSession; CLOSED only by us.
            }
        }
    }

    private void retire(CoordinationSession reattached) {
        if (retiring != null) {
            retiring.stop().exceptionally(t -> null);
        }
        retiring = reattached;
        session = null;
        sessionReady = false;
        lease = null;
        held = null;
        acquiringOn = null;
    }

    private void retireDone() {
        if (retiring != null) {
            CoordinationSession old = retiring;
            retiring = null;
            log.info("Border {} slot moved to session {}; stopping session {}", desired().borderId(), session.getId(), old.getId());
            old.stop().exceptionally(t -> null);
        }
    }

    private void selfCheck() {
        CoordinationSession on = session;
        if (!closing && on != null && sessionReady && acquiringOn == null && held != null && on.getState().isConnected()) {
            verifySlot(on);
        }
    }

    /** Trusts only what describe says: re-acquires if our session is not an owner or its data differs. */
    private void verifySlot(CoordinationSession on) {
        loop.when(bounded(on.describeSemaphore(semaphore, DescribeSemaphoreMode.WITH_OWNERS)), (result, failure) -> {
            if (on != session) {
                return;
            }
            if (failure != null || !result.isSuccess()) {
                Status status = failure == null ? result.getStatus() : null;
                if (interruptedBySession(on, status)) {
                    return; // the session listener takes over
                }
                log.warn("Border {} could not check its slot ({}); republishing", desired().borderId(), reason(result, failure));
                slotLost();
                // NOT_FOUND: the semaphore itself is gone, so recreate it before acquiring again.
                createSemaphoreAndPublish(on);
                return;
            }
            Announcement expected = held;
            boolean ours = expected != null && ownsWith(result.getValue(), on.getId(), heldData);
            if (!ours) {
                log.warn("Border {} slot missing or changed; republishing", desired().borderId());
                slotLost();
            }
            publish();
        });
    }

    private void slotLost() {
        if (held != null) {
            metrics.reregistration();
            setState(RegistrationState.REGISTERING);
        }
        held = null;
    }

    private static boolean ownsWith(SemaphoreDescription description, long sessionId, byte[] data) {
        for (SemaphoreDescription.Session owner : description.getOwnersList()) {
            if (owner.getId() == sessionId) {
                return Arrays.equals(owner.getData(), data);
            }
        }
        return false;
    }

    // ---- publishing (loop) ----

    /** Makes the registry hold the latest announcement; one acquire in flight at a time, updates coalesce. */
    private void publish() {
        CoordinationSession on = session;
        if (closing || on == null || !sessionReady || acquiringOn == on || !on.getState().isConnected()) {
            return;
        }
        Announcement target = desired();
        if (target.equals(held)) {
            settle();
            return;
        }
        acquiringOn = on;
        byte[] data = writer.write(target);
        loop.when(bounded(on.acquireSemaphore(semaphore, 1, data, ACQUIRE_TIMEOUT)), (result, failure) -> {
            if (acquiringOn == on) {
                acquiringOn = null;
            }
            if (on != session || closing) {
                return;
            }
            if (failure == null && result.isSuccess()) {
                boolean first = held == null;
                lease = result.getValue();
                held = target;
                heldData = data;
                if (first) {
                    log.info("Border {} registered with generation {} ({} IPs)", target.borderId(), target.generation(), target.ips().size());
                } else {
                    log.debug("Border {} published generation {}", target.borderId(), target.generation());
                }
                settle();
                retireDone();
                publish(); // an update may have arrived meanwhile
                return;
            }
            publishFailed(on, target, result, failure);
        });
    }

    private void publishFailed(CoordinationSession on, Announcement target, Result<SemaphoreLease> result, Throwable failure) {
        String reason = reason(result, failure);
        metrics.publishFailure();
        if (interruptedBySession(on, failure == null ? result.getStatus() : null)) {
            // The session listener takes over: RECONNECTED re-checks the slot, LOST re-registers.
            log.warn("Border {} publish of generation {} interrupted by the session ({}); waiting for it",
                    target.borderId(), target.generation(), reason);
            return;
        }
        if (failure != null && YdbConnection.cause(failure) instanceof TimeoutException) {
            // No answer at all: a half-open stream the SDK will not notice. Start over with a new session.
            failed("publish of generation " + target.generation() + ": " + reason);
            return;
        }
        StatusCode code = failure == null ? result.getStatus().getCode() : null;
        log.warn("Border {} publish of generation {} failed: {}; retrying", target.borderId(), target.generation(), reason);
        if (code == StatusCode.BAD_REQUEST || code == StatusCode.PRECONDITION_FAILED) {
            // The registry will never take this content: tell the caller instead of letting it wait.
            pending.failUpTo(target.generation(), new RegistryException("registry refused generation %d of border %s: %s"
                    .formatted(target.generation(), target.borderId(), reason)));
        }
        setState(RegistrationState.FAILED);
        // A deleted semaphore is recreated; anything else is retried as is.
        loop.schedule(() -> {
            if (on == session && !closing) {
                createSemaphoreAndPublish(on);
            }
        }, backoff.next());
    }

    /** The registry holds {@link #held}: complete what it covers and report the state. */
    private void settle() {
        if (held == null) {
            return;
        }
        backoff.reset();
        pending.heldUpTo(held);
        if (held.equals(desired())) {
            setState(RegistrationState.REGISTERED);
        }
    }


    // ---- failure and retry (loop) ----

    private void failed(String reason) {
        if (closing) {
            return;
        }
        metrics.publishFailure();
        Duration delay = backoff.next();
        log.warn("Border {} could not register: {}; retrying in {} ms (attempt {})", desired().borderId(), reason,
                delay.toMillis(), backoff.attempts());
        setState(RegistrationState.FAILED);
        dropSession();
        if (retry != null) {
            retry.cancel(false);
        }
        retry = loop.schedule(this::openSession, delay);
    }

    private void scheduleRetry() {
        if (closing || retry != null) {
            return;
        }
        retry = loop.schedule(this::openSession, backoff.next());
    }

    private void dropSession() {
        CoordinationSession old = session;
        session = null;
        sessionReady = false;
        lease = null;
        held = null;
        acquiringOn = null;
        if (old != null) {
            // Stopping a lost session is a no-op; stopping a live one releases whatever it still holds.
            old.stop().exceptionally(t -> null);
        }
    }

    private void setState(RegistrationState next) {
        RegistrationState previous = state;
        if (previous == next || previous == RegistrationState.CLOSED) {
            return;
        }
        state = next;
        metrics.state(next);
        log.info("Border {} registration {} -> {}", desired().borderId(), previous, next);
        for (Consumer<RegistrationState> listener : listeners) {
            try {
                listener.accept(next);
            } catch (RuntimeException e) {
                log.warn("Registration state listener failed", e);
            }
        }
    }

    // ---- close ----

    @Override
    public void close() {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.execute(() -> release(done));
        if (!loop.inLoop()) {
            try {
                done.get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                log.warn("Border {}: release not confirmed within {}; the server frees the slot after the session timeout",
                        desired().borderId(), CLOSE_TIMEOUT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                log.warn("Border {}: release failed", desired().borderId(), e);
            }
            loop.close();
        } else {
            done.whenComplete((v, t) -> loop.close());
        }
        onClosed.accept(this);
    }

    private void release(CompletableFuture<Void> done) {
        if (retry != null) {
            retry.cancel(false);
            retry = null;
        }
        pending.failUpTo(Long.MAX_VALUE, new CancellationException("registration closed"));
        if (opening != null) {
            // Closed while a session was being opened: it holds nothing yet, but must not outlive us.
            opening.thenAccept(CoordinationSession::stop);
            opening = null;
        }
        CoordinationSession on = session;
        SemaphoreLease slot = lease;
        session = null;
        if (retiring != null) {
            retiring.stop().exceptionally(t -> null);
            retiring = null;
        }
        setState(RegistrationState.CLOSED);
        if (on == null) {
            done.complete(null);
            return;
        }
        CompletableFuture<Void> released = slot != null && on.getState().isConnected()
                ? slot.release().exceptionally(t -> null)
                : CompletableFuture.completedFuture(null);
        long stoppedId = on.getId(); // the SDK forgets the id once stopped
        // Release first so App sees the slot go even if the stop is slow; the stop then ends the session.
        released.thenCompose(v -> on.stop()).whenComplete((status, failure) -> {
            log.info("Border {} released its slot and stopped session {}", desired().borderId(), stoppedId);
            done.complete(null);
        });
    }

    /** Simulates process death for tests: stop all work without releasing anything. */
    void abandon() {
        closing = true;
        loop.close();
    }

    // ---- helpers ----

    /** Whether a failure belongs to the session (reattaching or gone) rather than to the request. */
    private static boolean interruptedBySession(CoordinationSession on, Status status) {
        if (!on.getState().isConnected()) {
            return true;
        }
        StatusCode code = status == null ? null : status.getCode();
        return code == StatusCode.BAD_SESSION || code == StatusCode.SESSION_EXPIRED;
    }

    private static boolean succeeded(Status status, Throwable failure) {
        return failure == null && status != null && status.isSuccess();
    }

}
