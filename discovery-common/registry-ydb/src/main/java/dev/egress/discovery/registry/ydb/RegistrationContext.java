package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementWriter;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.RegistrationState;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.coordination.CoordinationSession;

/**
 * What the two halves of one registration (its {@link SessionKeeper} and its {@link SlotPublisher}) share: the
 * loop they run on, the slot's one {@link RegistrationPhase} reference and the only method that switches it,
 * the reported {@link RegistrationState} with its listeners, and the backoff that a success on either side
 * resets. The phase is touched only on the loop; the reported state and {@code closing} are read anywhere.
 */
final class RegistrationContext {

    /** The registration logs under one name, whichever half speaks (operators filter on it). */
    private static final Logger log = LoggerFactory.getLogger(YdbRegistration.class);

    final YdbConnection connection;
    final RegistryLoop loop;
    final AnnouncementWriter writer;
    final RegistrationMetrics metrics;
    final String semaphore;
    /** Shared by both halves: a lost session and a failed step back off alike, and any success resets it. */
    final Backoff backoff = new Backoff(Backoff.BASE, Backoff.CAP);

    private final Supplier<Announcement> desired;
    private final List<Consumer<RegistrationState>> listeners = new CopyOnWriteArrayList<>();

    private RegistrationPhase phase = new RegistrationPhase.Detached(); // loop
    private volatile RegistrationState state = RegistrationState.REGISTERING;
    private SessionKeeper keeper;

    RegistrationContext(
            YdbConnection connection,
            RegistryLoop loop,
            AnnouncementWriter writer,
            RegistrationMetrics metrics,
            Supplier<Announcement> desired) {
        this.connection = connection;
        this.loop = loop;
        this.writer = writer;
        this.metrics = metrics;
        this.semaphore = connection.settings().semaphore();
        this.desired = desired;
    }

    /** Completes the wiring: the keeper needs the publisher, which needs this context. */
    void keptBy(SessionKeeper sessions) {
        this.keeper = sessions;
    }

    SessionKeeper keeper() {
        return keeper;
    }

    /** The latest announcement the caller asked for (any thread). */
    Announcement desired() {
        return desired.get();
    }

    BorderId borderId() {
        return desired().borderId();
    }

    // ---- the phase (loop) ----

    RegistrationPhase phase() {
        return phase;
    }

    /** The one place the phase changes. */
    void moveTo(RegistrationPhase next) {
        if (log.isDebugEnabled()) {
            log.debug("Border {} registration phase {} -> {}", borderId(), phase, next);
        }
        phase = next;
    }

    /**
     * The current phase if it is on {@code session}, the keeper still has that session and the registration
     * is not closing: what every late answer of a request on that session checks before it acts.
     *
     * @param session the session a request went out on
     * @return the phase, or null if the answer is stale
     */
    RegistrationPhase.@Nullable Connected currentOn(CoordinationSession session) {
        return keeper.on(session) != null
                        && phase instanceof RegistrationPhase.Connected connected
                        && connected.on(session)
                ? connected
                : null;
    }

    /** Set by close() on the caller's thread, before the loop gets to release: late callbacks stand down. */
    boolean closing() {
        return keeper.closing();
    }

    // ---- the reported state ----

    RegistrationState state() {
        return state;
    }

    void onStateChange(Consumer<RegistrationState> listener) {
        listeners.add(listener);
    }

    /** Reports a state (loop); CLOSED is final. Listeners run after the change. */
    void report(RegistrationState next) {
        RegistrationState previous = state;
        if (previous == next || previous == RegistrationState.CLOSED) {
            return;
        }
        state = next;
        metrics.state(next);
        log.info("Border {} registration {} -> {}", borderId(), previous, next);
        for (Consumer<RegistrationState> listener : listeners) {
            try {
                listener.accept(next);
            } catch (RuntimeException e) {
                log.warn("Registration state listener failed", e);
            }
        }
    }
}
