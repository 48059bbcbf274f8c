package dev.egress.app.fleet;

import java.net.ConnectException;

/** What a failed call on a {@link BorderLink} tells about what reached the Border. */
public final class LinkFailures {

    private LinkFailures() {}

    /**
     * Whether no connection was obtained at all: nothing of the request was written.
     *
     * @param error the call's failure
     * @return true for a connect failure or a pool that gave no connection
     */
    public static boolean isConnectFailure(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            // Netty's ConnectTimeoutException and AnnotatedConnectException both extend ConnectException.
            if (t instanceof ConnectException) {
                return true;
            }
            // Reactor Netty's (shaded) pool exceptions: no connection was obtained, nothing was written.
            if (t.getClass().getSimpleName().startsWith("PoolAcquire")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
