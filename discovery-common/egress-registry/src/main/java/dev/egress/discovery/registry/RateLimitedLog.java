package dev.egress.discovery.registry;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * At most one log line per interval for an event a caller or a target can cause at will (a malformed
 * answer, a refused target, an unexpected error): one bad endpoint receiving thousands of webhooks must
 * not write thousands of lines, or stack traces. The line says how many were left out since the last
 * one; a metric beside each use still counts every one. Both services use it.
 */
public final class RateLimitedLog {

    private final Logger log;
    private final long intervalNanos;
    private final AtomicLong nextAllowed = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong suppressed = new AtomicLong();

    /**
     * Creates the limiter.
     *
     * @param log      where lines go
     * @param interval at most one line per this interval
     */
    public RateLimitedLog(Logger log, Duration interval) {
        this.log = log;
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Logs at WARN unless a line was logged within the interval.
     *
     * @param message the message (already safe for a log line)
     * @param cause   logged with its stack trace when not null
     */
    public void warn(String message, Throwable cause) {
        long now = System.nanoTime();
        long next = nextAllowed.get();
        if ((next != Long.MIN_VALUE && now - next < 0) || !nextAllowed.compareAndSet(next, now + intervalNanos)) {
            suppressed.incrementAndGet();
            return;
        }
        long skipped = suppressed.getAndSet(0);
        String line = skipped == 0 ? message : message + " (" + skipped + " similar not logged since the last line)";
        if (cause == null) {
            log.warn(line);
        } else {
            log.warn(line, cause);
        }
    }
}
