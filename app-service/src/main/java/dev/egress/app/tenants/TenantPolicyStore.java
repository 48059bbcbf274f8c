package dev.egress.app.tenants;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the current {@link TenantPolicy} in one {@link AtomicReference} and keeps it in step with the
 * tenants file. The file is polled (modification time and size first, then a content hash) rather than
 * watched: polling survives editors that replace files, ConfigMap symlink swaps and network file
 * systems alike. An invalid or unreadable file never replaces the last good policy; it is reported in
 * {@link #state()}, in health and in the {@code egress.tenants.reloads{result=rejected}} metric.
 */
public final class TenantPolicyStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TenantPolicyStore.class);
    /** Largest tenants file read; the parser's code point limit follows it. */
    static final int MAX_FILE_BYTES = 8 * 1024 * 1024;

    /**
     * What the store knows about the file.
     *
     * @param file        the watched file
     * @param tenants     number of tenants in the current policy
     * @param appliedAt   when the current policy was applied
     * @param valid       whether the last read of the file was valid
     * @param lastError   the rule the last invalid read broke, or null
     * @param lastErrorAt when that read happened, or null
     */
    public record State(
            Path file,
            int tenants,
            Instant appliedAt,
            boolean valid,
            @Nullable String lastError,
            @Nullable Instant lastErrorAt) {}

    private final Path file;
    private final Clock clock;
    private final AtomicReference<TenantPolicy> policy = new AtomicReference<>();
    private final AtomicReference<State> state = new AtomicReference<>();
    private final List<Consumer<TenantPolicy>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService poller;
    private final Counter applied;
    private final Counter rejected;
    // Poller-thread state: what was last looked at, so an unchanged file costs one stat call.
    private long seenModified = Long.MIN_VALUE;
    private long seenSize = -1;
    private byte[] seenHash = new byte[0];

    /**
     * Loads the file and starts polling it.
     *
     * @param properties where the file is and how often to look
     * @param meters     metrics registry
     * @param clock      time source
     * @throws IllegalStateException if the file is missing or invalid at startup: there is no last good
     *                               policy to fall back to, so the App must not start
     */
    public TenantPolicyStore(TenantsProperties properties, MeterRegistry meters, Clock clock) {
        this.file = properties.file();
        this.clock = Objects.requireNonNull(clock, "clock");
        this.applied = Counter.builder("egress.tenants.reloads")
                .tag("result", "applied")
                .description("Tenants file reads by result")
                .register(meters);
        this.rejected = Counter.builder("egress.tenants.reloads")
                .tag("result", "rejected")
                .description("Tenants file reads by result")
                .register(meters);
        String error = check();
        if (policy.get() == null) {
            throw new IllegalStateException("egress.tenants.file %s: %s".formatted(file, error));
        }
        Gauge.builder("egress.tenants.file.valid", state, s -> s.get().valid() ? 1 : 0)
                .description("1 if the last read of the tenants file was valid")
                .register(meters);
        Gauge.builder("egress.tenants", policy, p -> p.get().tenants().size())
                .description("Tenants in the current policy")
                .register(meters);
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tenants-file-poller");
            t.setDaemon(true);
            return t;
        });
        long periodMillis = Math.max(50, properties.reloadInterval().toMillis());
        poller.scheduleWithFixedDelay(this::pollSafely, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * The current policy. Never null.
     *
     * @return the last good policy
     */
    public TenantPolicy current() {
        return policy.get();
    }

    /**
     * The file's load state, for health.
     *
     * @return the state
     */
    public State state() {
        return state.get();
    }

    /**
     * Registers a listener called (on the poller thread) after each policy swap.
     *
     * @param listener receives the new policy
     */
    public void addListener(Consumer<TenantPolicy> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Checks the file now instead of waiting for the next poll.
     */
    public void refresh() {
        pollSafely();
    }

    private synchronized void pollSafely() {
        try {
            check();
        } catch (RuntimeException e) {
            // A poller that dies stops reloads for good: catch everything and keep running.
            log.warn("Tenants file check failed; keeping the last good policy", e);
        }
    }

    /** Returns the error of this read, or null if the file was valid or unchanged. */
    private synchronized @Nullable String check() {
        byte[] content;
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            long modified = attributes.lastModifiedTime().toMillis();
            if (modified == seenModified && attributes.size() == seenSize) {
                return null;
            }
            if (attributes.size() > MAX_FILE_BYTES) {
                return reject(
                        "file is %d bytes (expected: <= %d)".formatted(attributes.size(), MAX_FILE_BYTES),
                        modified,
                        attributes.size(),
                        null);
            }
            content = Files.readAllBytes(file);
            byte[] hash = sha256(content);
            if (MessageDigest.isEqual(hash, seenHash)) {
                seenModified = modified;
                seenSize = attributes.size();
                return null;
            }
            try {
                TenantPolicy next = TenantPolicyParser.parse(new String(content, StandardCharsets.UTF_8));
                seenModified = modified;
                seenSize = attributes.size();
                seenHash = hash;
                apply(next);
                return null;
            } catch (InvalidTenantsFileException e) {
                return reject(e.getMessage(), modified, attributes.size(), hash);
            }
        } catch (IOException e) {
            // Missing or unreadable (e.g. mid-replace): retry on every poll until it is readable again.
            return reject("cannot read: " + e, Long.MIN_VALUE, -1, null);
        }
    }

    private void apply(TenantPolicy next) {
        TenantPolicy previous = policy.getAndSet(next);
        state.set(new State(file, next.tenants().size(), clock.instant(), true, null, null));
        applied.increment();
        log.info(
                "Tenants file {} applied; tenants: {}, dedicated: {}, shared pool: {}",
                file,
                next.tenants().size(),
                next.tenants().values().stream().filter(Tenant::dedicated).count(),
                next.sharedPool());
        if (previous != null) {
            for (Consumer<TenantPolicy> listener : listeners) {
                try {
                    listener.accept(next);
                } catch (RuntimeException e) {
                    log.warn("Tenant policy listener failed", e);
                }
            }
        }
    }

    private String reject(String error, long modified, long size, byte[] hash) {
        seenModified = modified;
        seenSize = size;
        if (hash != null) {
            seenHash = hash;
        } else {
            seenHash = new byte[0];
        }
        rejected.increment();
        State previous = state.get();
        state.set(new State(
                file,
                previous == null ? 0 : previous.tenants(),
                previous == null ? null : previous.appliedAt(),
                false,
                error,
                clock.instant()));
        log.warn("Tenants file {} rejected, keeping the last good policy: {}", file, error);
        return error;
    }

    private static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
