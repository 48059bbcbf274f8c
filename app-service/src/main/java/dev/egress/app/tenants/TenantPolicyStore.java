package dev.egress.app.tenants;

import dev.egress.discovery.files.Reload;
import dev.egress.discovery.files.WatchedFile;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the current {@link TenantPolicy} and keeps it in step with the tenants file, a {@link WatchedFile}
 * polled every {@code reload-interval} on the shared file poller (metadata first, then the content): polling
 * rather than watching survives editors that replace files, ConfigMap symlink swaps and network file
 * systems alike. An invalid or unreadable file never replaces the last good policy; it is reported in
 * {@link #state()}, in health and in the {@code egress.tenants.reloads{result=rejected}} metric (and
 * {@code egress.file.reloads{file=egress.tenants.file}}).
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
    private final WatchedFile<TenantPolicy> watched;
    private final AtomicReference<State> state = new AtomicReference<>();
    private final List<Consumer<TenantPolicy>> listeners = new CopyOnWriteArrayList<>();
    private final Counter applied;
    private final Counter rejected;

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
        try {
            this.watched = WatchedFile.of("egress.tenants.file", file, TenantPolicyStore::parse)
                    .maxBytes(MAX_FILE_BYTES)
                    .meters(meters)
                    .clocks(clock, System::nanoTime)
                    .pollEvery(properties.reloadInterval());
        } catch (UncheckedIOException e) {
            throw new IllegalStateException("egress.tenants.file %s: cannot read: %s".formatted(file, e.getCause()));
        } catch (RuntimeException e) {
            throw new IllegalStateException("egress.tenants.file %s: %s".formatted(file, e.getMessage()), e);
        }
        applied(watched.get());
        watched.onReload(this::reloaded);
        watched.onChange(this::changed);
        Gauge.builder("egress.tenants.file.valid", state, s -> s.get().valid() ? 1 : 0)
                .description("1 if the last read of the tenants file was valid")
                .register(meters);
        Gauge.builder("egress.tenants", watched, w -> w.get().tenants().size())
                .description("Tenants in the current policy")
                .register(meters);
    }

    /**
     * The current policy. Never null.
     *
     * @return the last good policy
     */
    public TenantPolicy current() {
        return watched.get();
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
        watched.refresh();
    }

    private static TenantPolicy parse(byte[] content) {
        try {
            return TenantPolicyParser.parse(new String(content, StandardCharsets.UTF_8));
        } catch (InvalidTenantsFileException e) {
            throw new IllegalArgumentException(e.getMessage(), e); // rejected: the watched file keeps the last good
        }
    }

    private void reloaded(Reload reload) {
        if (reload.outcome() == Reload.Outcome.APPLIED) {
            applied(watched.get());
            return;
        }
        rejected.increment();
        State previous = state.get();
        // The watched file logs the rejection (WARN, once per bad state).
        state.set(new State(file, previous.tenants(), previous.appliedAt(), false, reload.error(), reload.at()));
    }

    private void applied(TenantPolicy next) {
        state.set(new State(file, next.tenants().size(), clock.instant(), true, null, null));
        applied.increment();
        log.info(
                "Tenants file {} applied; tenants: {}, dedicated: {}, shared pool: {}",
                file,
                next.tenants().size(),
                next.tenants().values().stream().filter(Tenant::dedicated).count(),
                next.sharedPool());
    }

    private void changed(TenantPolicy next) {
        for (Consumer<TenantPolicy> listener : listeners) {
            try {
                listener.accept(next);
            } catch (RuntimeException e) {
                log.warn("Tenant policy listener failed", e);
            }
        }
    }

    @Override
    public void close() {
        watched.close();
    }
}
