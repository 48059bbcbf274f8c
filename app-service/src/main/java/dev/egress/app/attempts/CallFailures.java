package dev.egress.app.attempts;

import dev.egress.app.fleet.LinkFailures;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * How a call to a Border that ended without an answer is classified: only a failure that certainly wrote
 * nothing (no connection obtained, TLS refused) is "not contacted", anything after the request may have
 * been written is "maybe", and never retried.
 */
public final class CallFailures {

    private CallFailures() {}

    /**
     * A call that waited while its link's PING was in doubt, and the connection was closed as silent: nothing was
     * sent, so it may go elsewhere.
     *
     * @param pingTimeout how long the PING went unanswered
     * @param startNanos  when the call started ({@link System#nanoTime()})
     * @return the attempt's result
     */
    public static AttemptResult silentLink(Duration pingTimeout, long startNanos) {
        return AttemptResult.failed(
                AttemptResult.Kind.LINK_SILENT,
                false,
                "the link to the Border went silent (no answer to a PING within %d ms); nothing was sent"
                        .formatted(pingTimeout.toMillis()),
                millisSince(startNanos));
    }

    /**
     * Milliseconds since a start.
     *
     * @param startNanos the start ({@link System#nanoTime()})
     * @return the milliseconds since
     */
    public static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /**
     * The result of a call that failed without an answer.
     *
     * @param error     the failure
     * @param latencyMs the attempt's time
     * @return the classified result
     */
    public static AttemptResult classify(Throwable error, long latencyMs) {
        if (error instanceof BorderAnswer.TooLargeException) {
            // The Border answered, so the call may have reached the target: a fault, never retried.
            return AttemptResult.failed(AttemptResult.Kind.BORDER_ERROR, true, error.getMessage(), latencyMs);
        }
        if (error instanceof TimeoutException) {
            return AttemptResult.failed(
                    AttemptResult.Kind.ATTEMPT_TIMEOUT, true, "no answer from the Border in time", latencyMs);
        }
        SSLException tlsFailure = tlsFailure(error);
        if (tlsFailure != null) {
            // The handshake failed, so nothing (not even the token) was written: safe to try elsewhere.
            return AttemptResult.failed(
                    AttemptResult.Kind.BORDER_UNVERIFIED,
                    false,
                    "TLS handshake with the Border failed: " + tlsFailure.getMessage(),
                    latencyMs);
        }
        if (LinkFailures.isConnectFailure(error)) {
            return AttemptResult.failed(
                    AttemptResult.Kind.NOT_REACHED, false, "cannot connect to the Border", latencyMs);
        }
        return AttemptResult.failed(
                AttemptResult.Kind.BORDER_ERROR, true, "exchange with the Border failed", latencyMs);
    }

    private static SSLException tlsFailure(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SSLException ssl) {
                return ssl;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }
}
