package dev.egress.app.attempts;

import dev.egress.app.fleet.BorderHandle;
import dev.egress.discovery.registry.Route;
import dev.egress.discovery.web.forward.ForwardDeadline;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One attempt on its way: the route, its Border's handle as the fleet held it when the route was chosen (null when
 * the Border left), the deadline the Border is sent, and the one place where the attempt is accounted to the
 * Border's breaker and passive health. Accounting happens once: a tunnel accounts its success when the Border has
 * it up ({@link #succeeded}), long before the attempt ends; the loop's accounting of the end is then a no-op.
 */
public final class Sending {

    private final Route route;
    private final @Nullable BorderHandle handle;
    private final ForwardDeadline deadline;
    private final Duration left;
    private final long startNanos = System.nanoTime();
    private final AtomicBoolean accounted = new AtomicBoolean();

    Sending(Route route, @Nullable BorderHandle handle, ForwardDeadline deadline, Duration left) {
        this.route = route;
        this.handle = handle;
        this.deadline = deadline;
        this.left = left;
    }

    /** The route (Border and source IP). */
    public Route route() {
        return route;
    }

    /** The route's Border as the fleet holds it; null when it left the snapshot. */
    public @Nullable BorderHandle handle() {
        return handle;
    }

    /** The deadline the Border is sent: when App gives up on this attempt, less the margin for clock skew. */
    public ForwardDeadline deadline() {
        return deadline;
    }

    /** How long this attempt may wait for the Border's answer. */
    public Duration left() {
        return left;
    }

    /** When the attempt started ({@link System#nanoTime()}). */
    public long startNanos() {
        return startNanos;
    }

    /** Accounts the attempt as a success now (a tunnel the Border has up); the attempt's end is not accounted. */
    public void succeeded() {
        account(AttemptResult.delivered(null, 0));
    }

    /** Accounts a result to the Border's breaker and passive health, unless the attempt already was. */
    void account(AttemptResult result) {
        if (handle == null || !accounted.compareAndSet(false, true)) {
            return;
        }
        long nanos = System.nanoTime() - startNanos;
        CircuitBreaker breaker = handle.breaker();
        if (result.borderFault()) {
            breaker.onError(nanos, TimeUnit.NANOSECONDS, BorderFailure.INSTANCE);
            handle.ejection().onFailure();
        } else if (result.neutral()) {
            breaker.releasePermission();
        } else {
            breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
            handle.ejection().onSuccess();
        }
    }

    /** Recorded by breakers for Border faults; no stack trace, never thrown. */
    static final class BorderFailure extends RuntimeException {
        static final BorderFailure INSTANCE = new BorderFailure();

        private BorderFailure() {
            super("border failure", null, false, false);
        }
    }
}
