package dev.egress.app.resilience;

import dev.egress.discovery.registry.BorderId;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * App's own view of the traffic on each route (egress IP through one Border): calls in flight and the share of
 * recent attempts that failed at the Border. Breakers and ejection work per Border; operators look at IPs, so
 * this keeps the per-IP picture, one {@link BorderTraffic} per Border. Also the per-IP meters
 * {@code egress.ip.attempts} (counter by {@code ip}, {@code border}, {@code outcome}) and
 * {@code egress.ip.in.flight} (gauge), removed with their Border's {@link BorderTraffic#close()} when it leaves
 * the snapshot.
 */
public final class RouteTraffic {

    /**
     * One route's recent traffic.
     *
     * @param inFlight       calls to the Border through this IP that have not answered yet
     * @param recentAttempts attempts in the window
     * @param recentFailures attempts in the window that failed at the Border
     */
    public record Stats(int inFlight, int openTunnels, long recentAttempts, long recentFailures) {

        /** Nothing seen. */
        public static final Stats NONE = new Stats(0, 0, 0, 0);

        /**
         * Failed share of recent attempts.
         *
         * @return 0..1; 0 without attempts
         */
        public double errorRate() {
            return recentAttempts == 0 ? 0 : (double) recentFailures / recentAttempts;
        }
    }

    /** Slices of the window: the error rate moves in steps of a twelfth of it. */
    static final int BUCKETS = 12;

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
     * Starts tracking the routes of a Border that joined the snapshot.
     *
     * @param border the Border
     * @return its routes' traffic, empty
     */
    public BorderTraffic track(BorderId border) {
        return new BorderTraffic(this, border);
    }

    /**
     * How far back the recent error rate looks.
     *
     * @return the window
     */
    public Duration window() {
        return window;
    }

    MeterRegistry meters() {
        return meters;
    }

    long currentSlice() {
        return nanoTime.getAsLong() / sliceNanos;
    }
}
