package dev.egress.discovery.registry.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when a test says so, for ages and staleness without waiting. */
public final class MutableClock extends Clock {

    private volatile Instant now;

    /**
     * Creates the clock.
     *
     * @param start the initial time
     */
    public MutableClock(Instant start) {
        this.now = start;
    }

    /**
     * Moves the clock forward.
     *
     * @param step how far
     */
    public void advance(Duration step) {
        now = now.plus(step);
    }

    /**
     * Sets the clock to a time, forward or back.
     *
     * @param next the new time
     */
    public void set(Instant next) {
        now = next;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
