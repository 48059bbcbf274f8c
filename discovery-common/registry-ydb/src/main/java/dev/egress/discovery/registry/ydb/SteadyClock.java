package dev.egress.discovery.registry.ydb;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.function.LongSupplier;

/**
 * The clock a Border stamps its announcements' {@code publishedAt} with: the wall clock, except that it never steps
 * back. App refuses an announcement older than the newest it accepted from the same Border (a replay) and one whose
 * validity window, counted from {@code publishedAt}, has ended; a Border whose wall clock stepped back (an NTP
 * correction, a VM restored) would have every later announcement refused as one or the other until its clock caught
 * up. So after a step back, time goes on from the last stamp at the rate of the monotonic clock, and the wall clock
 * takes over again once it is ahead.
 */
final class SteadyClock extends Clock {

    private final Clock wall;
    private final LongSupplier nanos;
    private Instant last;
    private long lastNanos;

    SteadyClock(Clock wall, LongSupplier nanos) {
        this.wall = wall;
        this.nanos = nanos;
    }

    /**
     * A steady clock over a wall clock and the JVM's monotonic time.
     *
     * @param wall the wall clock
     * @return the clock
     */
    static SteadyClock over(Clock wall) {
        return wall instanceof SteadyClock steady ? steady : new SteadyClock(wall, System::nanoTime);
    }

    @Override
    public synchronized Instant instant() {
        Instant now = wall.instant();
        long at = nanos.getAsLong();
        if (last != null) {
            Instant floor = last.plusNanos(Math.max(0, at - lastNanos));
            if (now.isBefore(floor)) {
                now = floor;
            }
        }
        last = now;
        lastNanos = at;
        return now;
    }

    @Override
    public ZoneId getZone() {
        return wall.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new SteadyClock(wall.withZone(zone), nanos);
    }
}
