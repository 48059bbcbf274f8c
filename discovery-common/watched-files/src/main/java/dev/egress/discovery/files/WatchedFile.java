package dev.egress.discovery.files;

import dev.egress.discovery.files.Reload.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A value parsed from one or more files and parsed again when they change, without a restart: the one
 * reloader of every reloadable file (certificates, token files, the tenants file, the registry token).
 *
 * <ul>
 *   <li><b>One change rule</b> ({@link ChangeRule}): the cheap check first (modification time, size, file
 *       key), then the bytes, read when that differs or while a file is younger than {@link #SETTLE} (a
 *       rewrite within one tick of a coarse clock keeps time and size); only new bytes are parsed.</li>
 *   <li><b>Last good value.</b> Content that does not parse (a half-written file, a key that does not match its
 *       certificate) is rejected and the last good value stays; so does a file that cannot be read, unless the
 *       owner gave an {@linkplain Builder#whenUnreadable unreadable value} (token files fail closed). Each bad
 *       state is reported once, not on every check. The first read must succeed: there is nothing to fall back
 *       to.</li>
 *   <li><b>Listeners</b> of new values ({@link #onChange}) and of every reload ({@link #onReload}) run after
 *       the swap, outside the lock; a failing listener is logged and the others still run.</li>
 *   <li><b>Metrics</b>: {@code egress.file.reloads{file,outcome}} counts each reload by its
 *       {@link Outcome#tag()}.</li>
 *   <li><b>One poller</b> ({@link FilePoller}) for files polled in the background; a value read per request
 *       (a token) is instead checked when read, at most once per its interval.</li>
 * </ul>
 *
 * <p>{@link #get()} is a volatile read (plus, for a file checked when read, one clock read), cheap enough for
 * every TLS handshake and every request. Thread-safe.
 *
 * @param <T> the parsed value
 */
public final class WatchedFile<T> implements Supplier<T>, AutoCloseable {

    /** A file modified less than this long ago is compared by content even if its metadata looks unchanged. */
    public static final Duration SETTLE = Duration.ofSeconds(2);

    private static final Logger log = LoggerFactory.getLogger(WatchedFile.class);

    /** What one check found: a reload to report (null: nothing new) and the value to swap in (null: keep). */
    private record Step<V>(
            @Nullable Reload reload, @Nullable V value) {
        static <V> Step<V> nothing() {
            return new Step<>(null, null);
        }
    }

    private final String name;
    private final Function<List<byte[]>, T> parser;
    private final @Nullable Function<IOException, T> unreadable;
    private final ChangeRule rule;
    private final Clock clock;
    private volatile @Nullable MeterRegistry meters;
    private final List<Consumer<T>> changeListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<Reload>> reloadListeners = new CopyOnWriteArrayList<>();
    private volatile T current;

    // Guarded by this.
    private @Nullable Reload bad; // the bad state reported last, null while good
    private @Nullable ScheduledFuture<?> task;

    // Checked when read: when the next check is due, and how far apart checks are (-1: polled instead).
    private final LongSupplier nanos;
    private final AtomicLong nextCheck = new AtomicLong();
    private long checkNanos = -1;

    private WatchedFile(Builder<T> builder) {
        this.name = builder.name;
        this.parser = builder.parser;
        this.unreadable = builder.unreadable;
        this.clock = builder.clock;
        this.rule = new ChangeRule(builder.files, builder.maxBytes, clock);
        this.meters = builder.meters;
        this.nanos = builder.nanos;
        List<byte[]> bytes;
        try {
            bytes = Objects.requireNonNull(rule.changed(), "first read");
        } catch (IOException e) {
            throw new UncheckedIOException(rule.cannotRead(e), e);
        }
        this.current = Objects.requireNonNull(parser.apply(bytes), "parsed value");
    }

    /**
     * Starts describing a value parsed from one file.
     *
     * @param name   names the file in logs and metrics (the property that points at it)
     * @param file   the file
     * @param parser turns its bytes into the value; throws for content it refuses (the message, never a secret,
     *               is logged and reported)
     * @param <T>    the value type
     * @return the builder
     */
    public static <T> Builder<T> of(String name, Path file, Function<byte[], T> parser) {
        Objects.requireNonNull(parser, "parser");
        return new Builder<>(name, List.of(file), bytes -> parser.apply(bytes.get(0)));
    }

    /**
     * Starts describing a value parsed from several files together (a certificate and its key).
     *
     * @param name   names the files in logs and metrics
     * @param files  the files, in the order the parser gets their bytes
     * @param parser turns their bytes into the value; throws for content it refuses
     * @param <T>    the value type
     * @return the builder
     */
    public static <T> Builder<T> of(String name, List<Path> files, Function<List<byte[]>, T> parser) {
        return new Builder<>(name, List.copyOf(files), Objects.requireNonNull(parser, "parser"));
    }

    /**
     * The value now: the last good one (or the unreadable value). A file checked when read is checked first if
     * its interval has passed.
     *
     * @return the value
     */
    @Override
    public T get() {
        if (checkNanos >= 0) {
            long now = nanos.getAsLong();
            long due = nextCheck.get();
            if (now - due >= 0 && nextCheck.compareAndSet(due, now + checkNanos)) {
                refresh();
            }
        }
        return current;
    }

    /**
     * Counts this file's reloads from now on in {@code egress.file.reloads{file,outcome}}, for owners that get
     * their registry after the first read (a token file registers its gauges later).
     *
     * @param registry the registry
     */
    public void countReloadsIn(MeterRegistry registry) {
        this.meters = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Registers a listener of new values (run after the swap, on the thread that noticed the change).
     *
     * @param listener receives each new value
     */
    public void onChange(Consumer<T> listener) {
        changeListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Registers a listener of every reload, good or bad (run after the swap, outside the lock).
     *
     * @param listener receives each reload
     */
    public void onReload(Consumer<Reload> listener) {
        reloadListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Looks at the files now and swaps in a changed value that parses.
     *
     * @return true if the value changed
     */
    public boolean refresh() {
        Step<T> step;
        T previous;
        T next;
        synchronized (this) {
            previous = current;
            step = check();
            T value = step.value();
            if (value != null) {
                current = value;
            }
            next = current;
        }
        Reload reload = step.reload();
        if (reload == null) {
            return false;
        }
        report(reload);
        // Reloads first: an owner's state (health) is current before anyone hears of the new value.
        for (Consumer<Reload> listener : reloadListeners) {
            notify(() -> listener.accept(reload));
        }
        boolean changed = !next.equals(previous);
        if (changed) {
            for (Consumer<T> listener : changeListeners) {
                notify(() -> listener.accept(next));
            }
        }
        return changed;
    }

    /** One look, by the {@link ChangeRule}; runs under the lock. */
    private Step<T> check() {
        List<byte[]> bytes;
        try {
            bytes = rule.changed();
        } catch (IOException e) {
            return bad(Outcome.UNREADABLE, rule.cannotRead(e), e);
        } catch (IllegalArgumentException oversize) {
            return bad(Outcome.REJECTED, String.valueOf(oversize.getMessage()), null);
        }
        if (bytes == null) {
            return Step.nothing();
        }
        T value;
        try {
            value = Objects.requireNonNull(parser.apply(bytes), "parsed value");
        } catch (RuntimeException e) {
            return bad(Outcome.REJECTED, String.valueOf(e.getMessage()), null);
        }
        bad = null;
        return new Step<>(new Reload(Outcome.APPLIED, null, clock.instant()), value);
    }

    private Step<T> bad(Outcome outcome, String error, @Nullable IOException cause) {
        if (bad != null && bad.outcome() == outcome && error.equals(bad.error())) {
            return Step.nothing(); // once per bad state: a rotation in progress must not flood the log
        }
        bad = new Reload(outcome, error, clock.instant());
        T fallback = cause != null && unreadable != null ? unreadable.apply(cause) : null;
        return new Step<>(bad, fallback);
    }

    private void report(Reload reload) {
        MeterRegistry registry = meters;
        if (registry != null) {
            Counter.builder("egress.file.reloads")
                    .description("Reloads of watched files by outcome (applied, rejected, unreadable)")
                    .tag("file", name)
                    .tag("outcome", reload.outcome().tag())
                    .register(registry)
                    .increment();
        }
        switch (reload.outcome()) {
            case APPLIED -> log.debug("Reloaded {}", name); // owners log what the new value means
            case REJECTED -> log.warn("Ignoring changed {}: {}; keeping the last good value", name, reload.error());
            case UNREADABLE -> {
                if (unreadable == null) {
                    log.warn("{}: {}; keeping the last good value", name, reload.error());
                } // else the owner says what its unreadable value means
            }
        }
    }

    private void notify(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            log.warn("A listener of {} failed", name, e);
        }
    }

    private WatchedFile<T> polled(Duration interval) {
        synchronized (this) {
            task = FilePoller.every(name, interval, this::refresh);
        }
        return this;
    }

    private WatchedFile<T> checkedWhenRead(Duration interval) {
        checkNanos = Math.max(0, interval.toNanos());
        nextCheck.set(nanos.getAsLong() + checkNanos);
        return this;
    }

    /** Stops polling; {@link #get()} keeps answering the last value. */
    @Override
    public void close() {
        synchronized (this) {
            if (task != null) {
                task.cancel(false);
            }
        }
    }

    @Override
    public String toString() {
        return "WatchedFile[" + name + "]";
    }

    /**
     * How a {@link WatchedFile} is read and checked; {@link #pollEvery} or {@link #checkWhenRead} reads it the
     * first time.
     *
     * @param <T> the value type
     */
    public static final class Builder<T> {

        private final String name;
        private final List<Path> files;
        private final Function<List<byte[]>, T> parser;
        private @Nullable Function<IOException, T> unreadable;
        private long maxBytes = Long.MAX_VALUE;
        private Clock clock = Clock.systemUTC();
        private @Nullable MeterRegistry meters;
        private LongSupplier nanos = System::nanoTime;

        private Builder(String name, List<Path> files, Function<List<byte[]>, T> parser) {
            this.name = Objects.requireNonNull(name, "name");
            if (files.isEmpty()) {
                throw new IllegalArgumentException("files: [] (expected: at least one)");
            }
            this.files = files;
            this.parser = parser;
        }

        /**
         * Fails closed: a file that cannot be read after the start yields this value (not the last good one).
         *
         * @param value maps the read's failure to the value
         * @return this builder
         */
        public Builder<T> whenUnreadable(Function<IOException, T> value) {
            this.unreadable = Objects.requireNonNull(value, "value");
            return this;
        }

        /**
         * Refuses files larger than this (in all) unread, as rejected content.
         *
         * @param bytes the limit
         * @return this builder
         */
        public Builder<T> maxBytes(long bytes) {
            this.maxBytes = bytes;
            return this;
        }

        /**
         * Counts reloads in {@code egress.file.reloads{file,outcome}}.
         *
         * @param registry the registry
         * @return this builder
         */
        public Builder<T> meters(MeterRegistry registry) {
            this.meters = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /**
         * The clocks: wall time for reload times and the settle rule, nanos for checks when read (tests).
         *
         * @param wall  wall time
         * @param ticks monotonic nanoseconds
         * @return this builder
         */
        public Builder<T> clocks(Clock wall, LongSupplier ticks) {
            this.clock = Objects.requireNonNull(wall, "wall");
            this.nanos = Objects.requireNonNull(ticks, "ticks");
            return this;
        }

        /**
         * Reads the files and polls them on the shared poller every {@code interval} (at least 50 ms).
         *
         * @param interval how often to look
         * @return the file
         * @throws UncheckedIOException if a file cannot be read
         * @throws RuntimeException     what the parser throws for the first content, or for an oversize file
         */
        public WatchedFile<T> pollEvery(Duration interval) {
            return new WatchedFile<>(this).polled(interval);
        }

        /**
         * Reads the files and checks them when the value is read, at most once per {@code interval} (zero: on
         * every read). For values read per request, which need no thread of their own.
         *
         * @param interval the least time between two checks
         * @return the file
         * @throws UncheckedIOException if a file cannot be read
         * @throws RuntimeException     what the parser throws for the first content, or for an oversize file
         */
        public WatchedFile<T> checkWhenRead(Duration interval) {
            return new WatchedFile<>(this).checkedWhenRead(interval);
        }
    }
}
