package dev.egress.border.egress;

import dev.egress.border.BorderException;
import java.time.Duration;

/**
 * The one mapping from a transport failure to a typed problem, for callers outside this package (the tunnel
 * endpoint connects to targets too, and its failures must read exactly as a forward's: {@code connection-refused},
 * {@code dns-failed}, {@code target-denied}, each with {@code targetContacted}).
 */
public final class ConnectFailures {

    private ConnectFailures() {}

    /**
     * Classifies a failure of a connection to a target.
     *
     * @param error what the connect or the call failed with
     * @return the typed problem ({@code targetContacted} errs on the side of "maybe")
     */
    public static BorderException classify(Throwable error) {
        return EgressService.classify(error);
    }

    /**
     * A connect (name resolution included) that did not complete within its bound: nothing was sent.
     *
     * @param bound the bound (App's deadline, or {@code egress.limits.connect-timeout})
     * @return 504 {@code target-timeout}, reason {@code connection-timeout}, not contacted
     */
    public static BorderException timedOut(Duration bound) {
        return TargetFailureException.timeout(
                TargetFailureReason.CONNECTION_TIMEOUT, "no connection to the target within " + bound, false);
    }
}
