package dev.egress.app.dispatch;

import dev.egress.app.fleet.LinkFailures;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * How a call to a Border that ended without an answer is classified: only a failure that certainly wrote
 * nothing (no connection obtained, TLS refused) is "not contacted", anything after the request may have
 * been written is "maybe", and never retried.
 */
final class CallFailures {

    private CallFailures() {}

    /**
     * The result of a call that failed without an answer.
     *
     * @param error     the failure
     * @param latencyMs the attempt's time
     * @return the classified result
     */
    static AttemptResult classify(Throwable error, long latencyMs) {
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
