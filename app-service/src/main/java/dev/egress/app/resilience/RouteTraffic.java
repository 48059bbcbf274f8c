package dev.egress.app.resilience;

import dev.egress.discovery.BorderId;
import dev.egress.discovery.EgressIp;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * App's own view of the traffic on each route (egress IP through one Border): calls in flight and the
 * share of recent attempts that failed at the Border. Breakers and ejection work per Border; operators
 * look at IPs, so this keeps the per-IP picture. Also the per-IP meters {@code egress.ip.attempts}
 * (counter by {@code ip}, {@code border}, {@code outcome}) and {@code egress.ip.in.flight} (gauge).
 * Routes of Borders that leave the snapshot are forgotten with their meters.
 */
public final class RouteTraffic {

    /**
     * One route's recent traffic.
     *
     * @param inFlight       calls to the Border through this IP that have not answered yet
     * @param recentAttempts attempts in the window
     * @param recentFailures attempts in the window that failed at the Border
     */
    public record Stats(int inFlight, long recentAttempts, long recentFailures) {

        /** Nothing seen. */
        public static final Stats NONE = new Stats(0, 0, 0);

        /**
         * Failed share of recent attempts.
         *
         * @return 0..1; 0 without attempts
         */
        public double errorRate() {
            return recentAttempts == 0 ? 0 : (double) recentFailures / recentAttempts;
        }
    }

    private record Key(EgressIp ip, BorderId border) {}

    private static final int BUCKETS = 12;

    /** A ring of per-slice counts; synchronized: a few increments per delivery, never contended for long. */
    private final class Entry {
        final AtomicInteger inFlight = new AtomicInteger();
        final long[] slice = new long[BUCKETS];
        final long[] attempts = new long[BUCKETS];
        final long[] failures = new long[BUCKETS];
        final List<Meter> meters = new ArrayList<>();
        final ConcurrentHashMap<String, Counter> byOutcome = new ConcurrentHashMap<>();

        synchronized void record(boolean failed) {
            long now = currentSlice();
            int i = (int) (now % BUCKETS);
            if (slice[i] != now) {
                slice[i] = now;
                attempts[i] = 0;
                failures[i] = 0;
            }
            attempts[i]++;
            failures[i] += failed ? 1 : 0;
        }

        synchronized Stats stats() {
            long now = currentSlice();
            long a = 0;
            long f = 0;
            for (int i = 0; i < BUCKETS; i++) {
                if (now - slice[i] < BUCKETS) {
                    a += attempts[i];
                    f += failures[i];
                }
            }
            return new Stats(inFlight.get(), a, f);
        }
    }

    private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();
    private final long sliceNanos;
    private final LongSupplier nanoTime;
    private final MeterRegistry meters;
    private final Duration window;

    /**
     * Creates the tracker.
     *
     * @param window   how far back "recent" reaches (split into 12 slices)
     * @param nanoTime monotonic time source
     * @param meters   metrics registry
     */
    public RouteTraffic(Duration window, LongSupplier nanoTime, MeterRegistry meters) {
        this.window = window;
        this.sliceNanos = Math.max(1, window.toNanos() / BUCKETS);
        this.nanoTime = nanoTime;
        this.meters = meters;
    }

    /**
     * An attempt through a route starts.
     *
     * @param ip     the source IP
     * @param border the Border
     */
    public void started(EgressIp ip, BorderId border) {
        entry(ip, border).inFlight.incrementAndGet();
    }

    /**
     * An attempt through a route ended.
     *
     * @param ip      the source IP
     * @param border  the Border
     * @param outcome the attempt's outcome word (as in {@code egress.delivery.attempts})
     * @param failed  whether it failed at the Border (counts against the route)
     */
    public void finished(EgressIp ip, BorderId border, String outcome, boolean failed) {
        Entry entry = entry(ip, border);
        entry.inFlight.decrementAndGet();
        entry.record(failed);
        entry.byOutcome
                .computeIfAbsent(outcome, k -> {
                    Counter counter = Counter.builder("egress.ip.attempts")
                            .description("Border calls by source IP, Border and outcome")
                            .tag("ip", ip.value())
                            .tag("border", border.value())
                            .tag("outcome", outcome)
                            .register(meters);
                    synchronized (entry) {
                        entry.meters.add(counter);
                    }
                    return counter;
                })
                .increment();
    }

    /**
     * A route's recent traffic.
     *
     * @param ip     the source IP
     * @param border the Border
     * @return its stats; {@link Stats#NONE} if nothing was sent through it
     */
    public Stats stats(EgressIp ip, BorderId border) {
        Entry entry = entries.get(new Key(ip, border));
        return entry == null ? Stats.NONE : entry.stats();
    }

    /**
     * How far back the recent error rate looks.
     *
     * @return the window
     */
    public Duration window() {
        return window;
    }

    /**
     * Forgets the routes (and meters) of Borders that are no longer live.
     *
     * @param live the Borders in the current snapshot
     */
    public void retain(Collection<BorderId> live) {
        Set<BorderId> keep = Set.copyOf(live);
        entries.entrySet().removeIf(e -> {
            if (keep.contains(e.getKey().border())) {
                return false;
            }
            synchronized (e.getValue()) {
                e.getValue().meters.forEach(meters::remove);
            }
            return true;
        });
    }

    private Entry entry(EgressIp ip, BorderId border) {
        return entries.computeIfAbsent(new Key(ip, border), k -> {
            Entry entry = new Entry();
            entry.meters.add(Gauge.builder("egress.ip.in.flight", entry.inFlight, AtomicInteger::get)
                    .description("Border calls in flight by source IP and Border")
                    .tag("ip", ip.value())
                    .tag("border", border.value())
                    .register(meters));
            return entry;
        });
    }

    private long currentSlice() {
        return nanoTime.getAsLong() / sliceNanos;
    }
}
