package dev.egress.border.decisions;

import dev.egress.border.IpNotHostedException;
import dev.egress.border.UnavailableException;
import dev.egress.border.registration.BorderRegistrar;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.DecisionStore;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this Border's operator decisions durable: an operator change is stored in the registry and announced at
 * the same time, and answered once both are done; a failed store answers 503 and takes the announcement back (the
 * IP returns to what it was, as one more generation). Storing first and announcing after put two registry round
 * trips in series before any App could see the change; in parallel it is one. A restart still never announces what
 * was not stored: at startup the stored
 * decisions are read, before the first announcement, and applied by {@link StartupDecisions}' rule. If that
 * read fails (after retries for {@code egress.decisions.read-timeout}) every IP starts {@code DISABLED} and the
 * read goes on in the background with backoff up to 30 s, until it succeeds (the stored decisions then apply)
 * or an operator changes an IP (that record wins). A corrupt record is not retried: it stays fail-closed until
 * an operator acts. Changes and late reads are serialised in one chain, so each stored record is the previous
 * one plus one change, in the order they are announced.
 */
public final class DecisionKeeper {

    private static final Logger log = LoggerFactory.getLogger(DecisionKeeper.class);
    /** A store that does not answer in this time counts as failed; the operator API waits 10 s in all. */
    static final Duration WRITE_WAIT = Duration.ofSeconds(5);

    private static final Duration RECOVERY_FIRST = Duration.ofSeconds(1);
    private static final Duration RECOVERY_MAX = Duration.ofSeconds(30);
    private static final Duration RECOVERY_READ_WAIT = Duration.ofSeconds(3);

    /**
     * The decisions held and their state, swapped together.
     *
     * @param decisions what the registry holds (or, after a fail-closed start, what the next write stores)
     * @param state     where they stand
     */
    private record Held(OperatorDecisions decisions, DecisionsState state) {}

    private final DecisionStore store;
    private final BorderRegistrar registrar;
    private final DecisionRecords records;
    private final StateFile stateFile;
    private final BorderId borderId;
    private final List<EgressIp> configured;
    private final IpStatus initial;
    private final Duration readTimeout;
    private final AtomicReference<Held> held;
    private CompletableFuture<?> tail = CompletableFuture.completedFuture(null); // guarded by this
    /** Whether a failed start's read is still being retried (cleared by its success or an operator's change). */
    private volatile boolean recovering;

    private final ScheduledExecutorService recovery = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "border-decisions-read");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * Creates a keeper of unsigned records ({@code insecure-local}); nothing is read before {@link #restore()}.
     *
     * @param store       the registry record of this Border's decisions
     * @param registrar   the announcement's owner
     * @param configured  the IPs this Border hosts, in configuration order
     * @param initial     {@code egress.border.initial-status}
     * @param readTimeout {@code egress.decisions.read-timeout}
     * @param meters      metrics ({@code border.decisions.state}, one gauge per state, 1 for the current)
     */
    public DecisionKeeper(
            DecisionStore store,
            BorderRegistrar registrar,
            List<EgressIp> configured,
            IpStatus initial,
            Duration readTimeout,
            MeterRegistry meters) {
        this(store, DecisionRecords.unsigned(), null, registrar, configured, initial, readTimeout, meters);
    }

    /**
     * Creates the keeper; nothing is read before {@link #restore()}.
     *
     * @param store       the registry record of this Border's decisions
     * @param records     the record's form: signed and verified on the trust chain
     * @param stateFile   {@code egress.decisions.state-file}: where this Border remembers its last stored record;
     *                    null when it cannot remember (a deleted or replayed record then goes unnoticed)
     * @param registrar   the announcement's owner
     * @param configured  the IPs this Border hosts, in configuration order
     * @param initial     {@code egress.border.initial-status}
     * @param readTimeout {@code egress.decisions.read-timeout}
     * @param meters      metrics ({@code border.decisions.state}, one gauge per state, 1 for the current)
     */
    public DecisionKeeper(
            DecisionStore store,
            DecisionRecords records,
            @Nullable Path stateFile,
            BorderRegistrar registrar,
            List<EgressIp> configured,
            IpStatus initial,
            Duration readTimeout,
            MeterRegistry meters) {
        this.store = Objects.requireNonNull(store, "store");
        this.records = Objects.requireNonNull(records, "records");
        this.registrar = Objects.requireNonNull(registrar, "registrar");
        this.borderId = registrar.current().borderId();
        this.stateFile = new StateFile(stateFile, borderId);
        this.configured = List.copyOf(configured);
        this.initial = Objects.requireNonNull(initial, "initial");
        this.readTimeout = Objects.requireNonNull(readTimeout, "readTimeout");
        this.held = new AtomicReference<>(
                new Held(OperatorDecisions.none(borderId), DecisionsState.of(DecisionsState.Kind.NOTHING_STORED)));
        for (DecisionsState.Kind kind : DecisionsState.Kind.values()) {
            Gauge.builder("border.decisions.state", () -> state().kind() == kind ? 1 : 0)
                    .tag("state", kind.name())
                    .description("1 for the state of this Border's stored operator decisions")
                    .register(meters);
        }
    }

    /**
     * Reads the stored decisions (retrying with backoff for up to {@code egress.decisions.read-timeout}) and
     * applies them to the local announcement. Blocks; call once, before the registration starts, so that the
     * first announcement already carries them.
     *
     * @return the resulting state
     */
    public DecisionsState restore() {
        if (!stateFile.configured()) {
            log.warn(
                    "egress.decisions.state-file is not set: {} cannot tell a deleted or replayed decision record "
                            + "from a Border that never stored one",
                    borderId);
        }
        StartupDecisions.Read read = StartupRead.withRetries(store, readTimeout, borderId);
        StartupDecisions start = decide(read);
        // Fail closed now, but keep reading after a failed read: when the registry answers, what the operator
        // decided applies without anyone having to set every IP of every Border again after an outage.
        recovering = read instanceof StartupDecisions.ReadFailed;
        apply(start);
        if (recovering) {
            scheduleRecovery(RECOVERY_FIRST);
        }
        if (read instanceof StartupDecisions.Stored stored
                && start.state().kind() == DecisionsState.Kind.RESTORED
                && records.needsSigning(stored.record())) {
            // Taken unsigned for the upgrade roll only: store it signed now, so that the next start needs no leave.
            log.warn("Stored decisions of {} were unsigned; storing them again, signed", borderId);
            synchronized (this) {
                tail = tail.handle((ignored, failure) -> null)
                        .thenCompose(ignored -> storeAndAnnounce("re-signed", d -> d, Announce.NOTHING));
            }
        }
        return start.state();
    }

    private StartupDecisions decide(StartupDecisions.Read read) {
        StartupDecisions.Memory memory = stateFile.read();
        StartupDecisions start = StartupDecisions.decide(borderId, configured, initial, read, records, memory);
        if (memory instanceof StartupDecisions.Remembers remembers
                && start.decisions().sequence() > remembers.sequence()) {
            stateFile.remember(start.decisions().sequence()); // a write whose remembering failed last time
        }
        return start;
    }

    private void apply(StartupDecisions start) {
        for (Map.Entry<EgressIp, IpStatus> entry : start.statuses().entrySet()) {
            // The operator's layer, not the announced one: an IP the identity check withholds is announced
            // DISABLED whatever was decided, and must come back with the decision, not with the initial status.
            if (registrar
                    .operatorStatusOf(entry.getKey())
                    .filter(entry.getValue()::equals)
                    .isEmpty()) {
                // Before register() this changes the local announcement only; afterwards it is announced.
                registrar.setStatus(entry.getKey(), entry.getValue());
            }
        }
        for (EgressIp ip : configured) {
            boolean released = start.decisions().released().contains(ip);
            if (registrar.isReleased(ip) != released) {
                registrar.release(ip, released);
            }
        }
        held.set(new Held(start.decisions(), start.state()));
        if (!start.ignored().isEmpty()) {
            log.warn(
                    "Ignoring stored decisions of {} for IPs it no longer hosts: {} (dropped at the next change)",
                    borderId,
                    start.ignored());
        }
        switch (start.state().kind()) {
            case FAIL_CLOSED ->
                log.error(
                        "Operator decisions of {} cannot be read, so every IP starts DISABLED until an operator sets "
                                + "it (PUT /ops/v1/ips/<ip>){}: {}",
                        borderId,
                        recovering ? " or a later read succeeds" : "",
                        start.state().reason());
            case RESTORED ->
                log.info(
                        "Restored the operator decisions of {}: {}, released {}",
                        borderId,
                        start.decisions().statuses(),
                        start.decisions().released());
            default -> log.info("No operator decisions stored for {}; IPs start {}", borderId, initial);
        }
    }

    private void scheduleRecovery(Duration delay) {
        try {
            recovery.schedule(() -> recoverOnce(delay), delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            log.debug("Decision keeper closed; no further read of the decisions");
        }
    }

    /** One more read after a failed start, in the change chain so that it never races an operator's change. */
    private void recoverOnce(Duration delay) {
        synchronized (this) {
            tail = tail.handle((ignored, failure) -> null)
                    // Bounded, so that an operator's change queued behind this read still meets its own deadline.
                    .thenCompose(ignored -> store.read()
                            .orTimeout(RECOVERY_READ_WAIT.toMillis(), TimeUnit.MILLISECONDS)
                            .handle((record, failure) -> {
                                if (!recovering) {
                                    return null; // an operator decided meanwhile: that record is the truth now
                                }
                                if (failure != null) {
                                    Duration next = delay.multipliedBy(2).compareTo(RECOVERY_MAX) > 0
                                            ? RECOVERY_MAX
                                            : delay.multipliedBy(2);
                                    log.warn(
                                            "Reading the operator decisions of {} still fails, next try in {}: {}",
                                            borderId,
                                            next,
                                            String.valueOf(failure.getCause() != null ? failure.getCause() : failure));
                                    scheduleRecovery(next);
                                    return null;
                                }
                                recovering = false;
                                StartupDecisions.Read read = record.<StartupDecisions.Read>map(
                                                StartupDecisions.Stored::new)
                                        .orElseGet(StartupDecisions.NothingStored::new);
                                log.info(
                                        "Read the operator decisions of {} after the failed start; applying them",
                                        borderId);
                                apply(decide(read));
                                return null;
                            }));
        }
    }

    /** Stops the background read of a failed start. */
    public void close() {
        recovery.shutdownNow();
    }

    /**
     * An operator's change: stored in the registry while it is applied and announced. If the store fails the change
     * is taken back and the future fails with {@link UnavailableException} (503).
     *
     * @param ip     a hosted IP
     * @param status the new status
     * @return completes with the published announcement
     * @throws IpNotHostedException if the IP is not hosted here
     */
    public CompletableFuture<Announcement> change(EgressIp ip, IpStatus status) {
        return decide(ip, ip + "=" + status, d -> d.with(ip, status), () -> {
            IpStatus before = registrar.operatorStatusOf(ip).orElseThrow();
            // Taken back only if nothing set the IP meanwhile (shutdown's DRAINING, say), which then stands.
            return new Announce(
                    () -> registrar.setStatus(ip, status),
                    () -> registrar.operatorStatusOf(ip).filter(status::equals).isPresent()
                            ? registrar.setStatus(ip, before)
                            : CompletableFuture.completedFuture(registrar.current()));
        });
    }

    /**
     * An operator's move of a hosted IP to another Border (release) or back here (claim again): stored in the
     * registry while it is applied and announced, like {@link #change}. A released IP is announced {@code DISABLED} with
     * the reason {@code released}, which App reads as no claim of it.
     *
     * @param ip      a hosted IP
     * @param release true to release it, false to claim it again
     * @return completes with the published announcement
     * @throws IpNotHostedException if the IP is not hosted here
     */
    public CompletableFuture<Announcement> release(EgressIp ip, boolean release) {
        return decide(ip, ip + (release ? " released" : " claimed again"), d -> d.withRelease(ip, release), () -> {
            boolean before = registrar.isReleased(ip);
            return new Announce(() -> registrar.release(ip, release), () -> registrar.release(ip, before));
        });
    }

    private CompletableFuture<Announcement> decide(
            EgressIp ip, String what, UnaryOperator<OperatorDecisions> edit, Supplier<Announce> announce) {
        if (registrar.statusOf(ip).isEmpty()) {
            throw new IpNotHostedException("ip %s is not hosted by this Border".formatted(ip));
        }
        synchronized (this) {
            CompletableFuture<Announcement> next = tail.handle((ignored, failure) -> null)
                    // What "before" is, is read when the change's turn comes, after the changes queued ahead of it.
                    .thenCompose(ignored -> storeAndAnnounce(what, edit, announce.get()));
            tail = next;
            return next;
        }
    }

    private CompletableFuture<Announcement> storeAndAnnounce(
            String what, UnaryOperator<OperatorDecisions> edit, Announce announce) {
        OperatorDecisions previous = held.get().decisions();
        OperatorDecisions next = edit.apply(previous.retainOnly(configured)).withSequence(previous.sequence() + 1);
        CompletableFuture<Void> stored;
        try {
            stored = store.write(records.encode(next)).orTimeout(WRITE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            stored = CompletableFuture.failedFuture(e);
        }
        // Both at once: the record (the decisions' own semaphore, on the store's session) and the announcement (the
        // slot, on the registration's session) are two registry requests, and Apps see only the second.
        CompletableFuture<Announcement> announced = announce.start();
        return stored.handle((ok, failure) -> failure).thenCompose(failure -> {
            if (failure != null) {
                return takeBack(what, announce, failure);
            }
            recovering = false; // what the operator just stored wins over anything a late read finds
            held.set(new Held(next, DecisionsState.of(DecisionsState.Kind.STORED)));
            stateFile.remember(next.sequence());
            log.info(
                    "Stored the operator decision {} of {}; decisions {}, released {}",
                    what,
                    borderId,
                    next.statuses(),
                    next.released());
            return announced.thenApply(a -> a != null ? a : registrar.current());
        });
    }

    /** A record that could not be stored: the change is announced back away, then the operator hears 503. */
    private CompletableFuture<Announcement> takeBack(String what, Announce announce, Throwable failure) {
        Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
        log.warn(
                "Could not store the operator decision {} of {}; taking it back: {}", what, borderId, cause.toString());
        return announce.takeBackAfter(cause);
    }

    /**
     * Where the decisions stand (readiness detail).
     *
     * @return the state
     */
    public DecisionsState state() {
        return held.get().state();
    }

    /**
     * Whether the operator's layer has every hosted IP {@code DISABLED} (readiness: such a Border sends nothing).
     *
     * @return true if no hosted IP is set to anything but {@code DISABLED}
     */
    public boolean everyIpDisabled() {
        return configured.stream()
                .allMatch(ip -> registrar
                        .operatorStatusOf(ip)
                        .filter(s -> s != IpStatus.DISABLED)
                        .isEmpty());
    }

    /**
     * The decisions held now.
     *
     * @return the decisions
     */
    public OperatorDecisions decisions() {
        return held.get().decisions();
    }
}
