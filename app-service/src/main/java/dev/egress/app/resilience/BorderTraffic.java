package dev.egress.app.resilience;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.EgressIp;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The traffic of one Border's routes, IP by IP ({@link RouteTraffic}), with their meters. {@link #close()} removes
 * the meters when the Border leaves the snapshot; an attempt that ends after that is not counted any more, so no
 * meter of a departed Border comes back.
 */
public final class BorderTraffic {

    /** A ring of per-slice counts; synchronized: a few increments per delivery, never contended for long. */
    private final class Entry {
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger openTunnels = new AtomicInteger();
        final long[] slice = new long[RouteTraffic.BUCKETS];
        final long[] attempts = new long[RouteTraffic.BUCKETS];
        final long[] failures = new long[RouteTraffic.BUCKETS];
        final ConcurrentHashMap<String, Counter> byOutcome = new ConcurrentHashMap<>();

        synchronized void record(boolean failed) {
            long now = traffic.currentSlice();
            int i = (int) (now % RouteTraffic.BUCKETS);
            if (slice[i] != now) {
                slice[i] = now;
                attempts[i] = 0;
                failures[i] = 0;
            }
            attempts[i]++;
            failures[i] += failed ? 1 : 0;
        }

        synchronized RouteTraffic.Stats stats() {
            long now = traffic.currentSlice();
            long a = 0;
            long f = 0;
            for (int i = 0; i < RouteTraffic.BUCKETS; i++) {
                if (now - slice[i] < RouteTraffic.BUCKETS) {
                    a += attempts[i];
                    f += failures[i];
                }
            }
            return new RouteTraffic.Stats(inFlight.get(), openTunnels.get(), a, f);
        }
    }

    private final RouteTraffic traffic;
    private final BorderId border;
    private final ConcurrentHashMap<EgressIp, Entry> entries = new ConcurrentHashMap<>();
    /** Every meter registered for this Border; guarded by {@code this}, like {@link #closed}. */
    private final List<Meter> meters = new ArrayList<>();

    private boolean closed;

    BorderTraffic(RouteTraffic traffic, BorderId border) {
        this.traffic = traffic;
        this.border = border;
    }

    /**
     * An attempt through one of this Border's IPs starts.
     *
     * @param ip the source IP
     */
    public void started(EgressIp ip) {
        Entry entry = entry(ip);
        if (entry != null) {
            entry.inFlight.incrementAndGet();
        }
    }

    /**
     * An attempt through one of this Border's IPs ended.
     *
     * @param ip      the source IP
     * @param outcome the attempt's outcome word (as in {@code egress.delivery.attempts})
     * @param failed  whether it failed at the Border (counts against the route)
     */
    public void finished(EgressIp ip, String outcome, boolean failed) {
        Entry entry = entry(ip);
        if (entry == null) {
            return;
        }
        entry.inFlight.decrementAndGet();
        entry.record(failed);
        Counter counter = entry.byOutcome.get(outcome);
        if (counter == null) {
            counter = counter(entry, ip, outcome);
        }
        if (counter != null) {
            counter.increment();
        }
    }

    /**
     * A forward-proxy tunnel through this IP came up (it stays in flight until it ends, like any call); counted
     * apart so that operators see how many of the calls in flight are open tunnels.
     *
     * @param ip the route's IP
     */
    public void tunnelOpened(EgressIp ip) {
        Entry entry = entry(ip);
        if (entry != null) {
            entry.openTunnels.incrementAndGet();
        }
    }

    /**
     * A tunnel counted by {@link #tunnelOpened} ended.
     *
     * @param ip the route's IP
     */
    public void tunnelClosed(EgressIp ip) {
        Entry entry = entry(ip);
        if (entry != null) {
            entry.openTunnels.decrementAndGet();
        }
    }

    /**
     * A route's recent traffic.
     *
     * @param ip the source IP
     * @return its stats; {@link RouteTraffic.Stats#NONE} if nothing was sent through it
     */
    public RouteTraffic.Stats stats(EgressIp ip) {
        Entry entry = entries.get(ip);
        return entry == null ? RouteTraffic.Stats.NONE : entry.stats();
    }

    /** The Border left the snapshot: its routes and meters are forgotten. */
    public synchronized void close() {
        closed = true;
        meters.forEach(traffic.meters()::remove);
        meters.clear();
        entries.clear();
    }

    private @Nullable Entry entry(EgressIp ip) {
        Entry entry = entries.get(ip);
        return entry != null ? entry : create(ip);
    }

    // Rare (once per IP) and under the lock that close() takes, so no meter is registered after the close.
    private synchronized @Nullable Entry create(EgressIp ip) {
        if (closed) {
            return null;
        }
        return entries.computeIfAbsent(ip, k -> {
            Entry entry = new Entry();
            meters.add(Gauge.builder("egress.ip.in.flight", entry.inFlight, AtomicInteger::get)
                    .description("Border calls in flight by source IP and Border")
                    .tag("ip", ip.value())
                    .tag("border", border.value())
                    .register(traffic.meters()));
            return entry;
        });
    }

    private synchronized @Nullable Counter counter(Entry entry, EgressIp ip, String outcome) {
        if (closed) {
            return null;
        }
        return entry.byOutcome.computeIfAbsent(outcome, k -> {
            Counter counter = Counter.builder("egress.ip.attempts")
                    .description("Border calls by source IP, Border and outcome")
                    .tag("ip", ip.value())
                    .tag("border", border.value())
                    .tag("outcome", outcome)
                    .register(traffic.meters());
            meters.add(counter);
            return counter;
        });
    }
}
