package dev.egress.ydb.coordination.node;

import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.SessionResponse;

/**
 * The node's view of one client stream: the state machine talks to its sessions only through this, so that
 * it never touches gRPC itself. Every method must be safe to call from the node thread and must never block.
 */
public interface SessionPeer {

    /** Queues one message to the client; silently dropped once the stream is closed. */
    void send(SessionResponse response);

    /**
     * Tells the stream it now carries a session (after {@code session_started} was sent), so that it starts
     * the server pings derived from the session timeout.
     *
     * @param timeoutMillis the session timeout (unsigned)
     */
    void onAttached(long timeoutMillis);

    /** Sends {@code failure{status, message}} as the last message and finishes the call with gRPC OK. */
    void fail(StatusCode status, String message);

    /** Finishes the call with gRPC OK if it is still open (idempotent). */
    void finish();
}
