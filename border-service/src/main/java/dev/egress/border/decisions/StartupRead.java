package dev.egress.border.decisions;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.DecisionStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The startup read of a Border's decision record: blocking, with backoff, bounded by the read timeout. */
final class StartupRead {

    private static final Logger log = LoggerFactory.getLogger(DecisionKeeper.class);
    private static final Duration FIRST_RETRY = Duration.ofMillis(200);
    private static final Duration MAX_RETRY = Duration.ofSeconds(2);

    private StartupRead() {}

    /**
     * Reads the record, retrying with backoff until {@code readTimeout} has passed.
     *
     * @param store       the record's store
     * @param readTimeout {@code egress.decisions.read-timeout}
     * @param borderId    this Border (for the log)
     * @return what the read gave: a record, nothing stored, or a failure with its last cause
     */
    static StartupDecisions.Read withRetries(DecisionStore store, Duration readTimeout, BorderId borderId) {
        long deadline = System.nanoTime() + readTimeout.toNanos();
        Duration delay = FIRST_RETRY;
        int attempts = 0;
        String last;
        while (true) {
            attempts++;
            try {
                long left = Math.max(1, deadline - System.nanoTime());
                Optional<byte[]> record = store.read().get(left, TimeUnit.NANOSECONDS);
                return record.<StartupDecisions.Read>map(StartupDecisions.Stored::new)
                        .orElseGet(StartupDecisions.NothingStored::new);
            } catch (ExecutionException e) {
                last = String.valueOf(e.getCause());
            } catch (TimeoutException e) {
                last = "no answer in time";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new StartupDecisions.ReadFailed("interrupted");
            }
            if (System.nanoTime() + delay.toNanos() >= deadline) {
                return new StartupDecisions.ReadFailed("%s (%d attempts in %s)".formatted(last, attempts, readTimeout));
            }
            log.warn("Reading the operator decisions of {} failed, retrying in {}: {}", borderId, delay, last);
            try {
                Thread.sleep(delay.toMillis()); // startup backoff, not a test wait
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new StartupDecisions.ReadFailed("interrupted");
            }
            delay = delay.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : delay.multipliedBy(2);
        }
    }
}
