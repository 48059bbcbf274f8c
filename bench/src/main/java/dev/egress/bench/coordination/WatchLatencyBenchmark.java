package dev.egress.bench.coordination;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.description.SemaphoreChangedEvent;
import tech.ydb.coordination.description.SemaphoreWatcher;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.coordination.settings.WatchSemaphoreMode;
import tech.ydb.core.Result;

/**
 * Watch notification latency with 100 watchers, as 100 Apps watching the Border registry: a publisher
 * re-acquires its slot with new owner data (which fires {@code owners_changed}), and every watcher's SDK
 * future completes. JMH's sample mode reports the fan-out time (publish until the 100th watcher is notified);
 * the per-watcher latencies (publish until that watcher is notified) are collected too and printed as
 * p50/p99 at the end of the trial.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(1)
@State(Scope.Benchmark)
public class WatchLatencyBenchmark {

    private static final String SEMAPHORE = "bench-registry";
    private static final int WATCHERS = 100;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private CoordinationBenchFixture fixture;
    private CoordinationSession publisher;
    private final List<CoordinationSession> watchers = new ArrayList<>();
    private final List<CompletableFuture<Result<SemaphoreChangedEvent>>> armed = new ArrayList<>();
    private long[] perWatcherNanos = new long[1 << 16];
    private int samples;
    private boolean measuring;
    private long generation;

    @Setup(Level.Trial)
    public void start() {
        fixture = new CoordinationBenchFixture();
        publisher = fixture.session();
        CoordinationBenchFixture.expect(
                publisher.createSemaphore(SEMAPHORE, Long.MAX_VALUE).join(), "create");
        publish();
        for (int i = 0; i < WATCHERS; i++) {
            watchers.add(fixture.session());
        }
    }

    /** Re-arms every watch (one-shot) outside the measured time, as an App does after each notification. */
    @Setup(Level.Invocation)
    public void arm() {
        armed.clear();
        List<CompletableFuture<Result<SemaphoreWatcher>>> watches = new ArrayList<>();
        for (CoordinationSession watcher : watchers) {
            watches.add(watcher.watchSemaphore(
                    SEMAPHORE, DescribeSemaphoreMode.WITH_OWNERS, WatchSemaphoreMode.WATCH_OWNERS));
        }
        for (CompletableFuture<Result<SemaphoreWatcher>> watch : watches) {
            Result<SemaphoreWatcher> result = watch.join();
            if (!result.isSuccess()) {
                throw new IllegalStateException("watch: " + result.getStatus());
            }
            armed.add(result.getValue().getChangedFuture());
        }
    }

    /** From the measurement iterations on, per-watcher latencies are recorded. */
    @Setup(Level.Iteration)
    public void iteration(IterationParams params) {
        measuring = params.getType() == IterationType.MEASUREMENT;
    }

    @Benchmark
    public void publishAndAwaitAllWatchers() {
        long startedAt = System.nanoTime();
        List<CompletableFuture<Long>> notified = new ArrayList<>(armed.size());
        for (CompletableFuture<Result<SemaphoreChangedEvent>> changed : armed) {
            notified.add(changed.thenApply(event -> System.nanoTime()));
        }
        publish();
        for (CompletableFuture<Long> at : notified) {
            long nanos = at.join() - startedAt;
            if (measuring) {
                record(nanos);
            }
        }
    }

    private void publish() {
        byte[] data = ("{\"generation\":" + (++generation) + "}").getBytes(StandardCharsets.UTF_8);
        Result<?> result =
                publisher.acquireSemaphore(SEMAPHORE, 1, data, TIMEOUT).join();
        if (!result.isSuccess()) {
            throw new IllegalStateException("publish: " + result.getStatus());
        }
    }

    private void record(long nanos) {
        if (samples == perWatcherNanos.length) {
            perWatcherNanos = Arrays.copyOf(perWatcherNanos, samples * 2);
        }
        perWatcherNanos[samples++] = nanos;
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (samples > 0) {
            long[] sorted = Arrays.copyOf(perWatcherNanos, samples);
            Arrays.sort(sorted);
            System.out.printf(
                    "%nPer-watcher notification latency over %d notifications (%d watchers): "
                            + "p50 %.3f ms, p99 %.3f ms, max %.3f ms%n",
                    samples, WATCHERS, millis(sorted, 0.50), millis(sorted, 0.99), sorted[sorted.length - 1] / 1e6);
        }
        fixture.close();
    }

    private static double millis(long[] sorted, double quantile) {
        int index = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }
}
