package dev.egress.border.egress;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * At most one log line per interval for a failure a target can cause at will (a malformed answer, an
 * unexpected error): one bad endpoint receiving thousands of webhooks must not write thousands of
 * lines, or stack traces. The line says how many were left out since the last one; the metric
 * {@code border.egress.requests} still counts every one.
 */
final class RateLimitedLog {

    private final Logger log;
    private final long intervalNanos;
    private final AtomicLong nextAllowed = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong suppressed = new AtomicLong();

    RateLimitedLog(Logger log, Duration interval) {
        this.log = log;
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Logs at WARN unless a line was logged within the interval.
     *
     * @param message the message (already safe for a log line)
     * @param cause   logged with its stack trace when not null
     */
    void warn(String message, Throwable cause) {
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
