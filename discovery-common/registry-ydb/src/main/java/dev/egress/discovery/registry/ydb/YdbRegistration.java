package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Border's slot in the registry semaphore, kept true by a state machine that runs on its own
 * {@link RegistryLoop}: open a session, create the semaphore, acquire count 1 with the announcement as
 * owner data; republish by re-acquiring with the same count; after a reattach move the slot to a new
 * session (make-before-break); every session timeout check that the slot is still ours (describe
 * WITH_OWNERS, re-acquire if not); after a lost session start over with a new session, backing off with
 * full jitter. The announcement registered is always the latest one, so an update issued while
 * re-registering is not lost.
 *
 * <p>This class is the caller's side (stamping updates, the state, close). The machine has two halves
 * that share a {@link RegistrationContext}: a {@link SessionKeeper} keeps a session up (the same keeper as
 * App's watcher uses) and {@link SlotPublisher} keeps the slot on it, in one {@link RegistrationPhase}.
 */
final class YdbRegistration implements Registration {

    private static final Logger log = LoggerFactory.getLogger(YdbRegistration.class);
    /** How long close() waits for the release and the session stop. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final RegistryLoop loop;
    private final AnnouncementWriter writer;
    private final Clock clock;
    private final Consumer<YdbRegistration> onClosed;
    private final RegistrationContext ctx;
    private final SessionKeeper sessions;
    private final SlotPublisher slots;

    /** Guarded by {@code this}: stamping must be atomic so concurrent updates get distinct generations. */
    private Announcement desired;

    YdbRegistration(
            YdbConnection connection,
            Announcement initial,
            AnnouncementWriter writer,
            Clock clock,
            RegistrationMetrics metrics,
            Consumer<YdbRegistration> onClosed) {
        this.writer = writer;
        this.clock = clock;
        this.onClosed = onClosed;
        // Validate the size now: an announcement the registry can never hold is the caller's bug.
        this.desired = stamp(initial, initial.generation() - 1);
        this.loop = new RegistryLoop(
                "egress-registration-" + initial.borderId().value() + "-" + System.identityHashCode(this));
        this.ctx = new RegistrationContext(connection, loop, writer, metrics, this::current);
        this.slots = new SlotPublisher(ctx);
        this.sessions = new SessionKeeper(
                connection, loop, ctx.backoff, "Border " + initial.borderId().value(), log, slots);
        ctx.keptBy(sessions);
    }

    void start() {
        log.info(
                "Registering border {} in {}/{}",
                desired.borderId(),
                ctx.connection.settings().node(),
                ctx.semaphore);
        loop.execute(sessions::start);
        // Nothing tells a session that its slot vanished (an operator's forced delete of the semaphore drops
        // owners silently), so check now and then; a describe per session timeout costs the server nothing.
        Duration sessionTimeout = ctx.connection.settings().sessionTimeout();
        loop.every(
                sessionTimeout.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : sessionTimeout,
                slots::selfCheck);
    }

    @Override
    public synchronized Announcement current() {
        return desired;
    }

    @Override
    public CompletableFuture<Announcement> update(Announcement next) {
        CompletableFuture<Announcement> result = new CompletableFuture<>();
        if (ctx.closing()) {
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
            if (ctx.closing()) {
                result.completeExceptionally(new IllegalStateException("registration closed"));
                return;
            }
            slots.enqueue(stamped.generation(), result);
        });
        return result;
    }

    @Override
    public RegistrationState state() {
        return ctx.state();
    }

    @Override
    public void onStateChange(Consumer<RegistrationState> listener) {
        ctx.onStateChange(listener);
    }

    private Announcement stamp(Announcement content, long previousGeneration) {
        Announcement stamped = content.republished(previousGeneration, clock.instant());
        writer.write(stamped); // throws if it exceeds the payload limit
        return stamped;
    }

    // ---- close ----

    @Override
    public void close() {
        if (!sessions.beginClose()) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.execute(() -> slots.release(done));
        if (!loop.inLoop()) {
            try {
                done.get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                log.warn(
                        "Border {}: release not confirmed within {}; the server frees the slot after the session timeout",
                        current().borderId(),
                        CLOSE_TIMEOUT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                log.warn("Border {}: release failed", current().borderId(), e);
            }
            loop.close();
        } else {
            done.whenComplete((v, t) -> loop.close());
        }
        onClosed.accept(this);
    }

    /** Simulates process death for tests: stop all work without releasing anything. */
    void abandon() {
        sessions.beginClose();
        loop.close();
    }
}
