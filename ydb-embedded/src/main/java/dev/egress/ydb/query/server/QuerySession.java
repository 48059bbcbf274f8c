package dev.egress.ydb.query.server;

import dev.egress.ydb.query.store.Transaction;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicBoolean;
import tech.ydb.proto.query.YdbQuery.SessionState;

/**
 * One Query-service session: at most one query at a time ({@link #tryEnter}), at most one open interactive
 * transaction, and the attach stream that keeps it alive (ended when the session is deleted).
 */
final class QuerySession {

    private final String id;
    private final AtomicBoolean busy = new AtomicBoolean();
    private StreamObserver<SessionState> attach;
    private Transaction tx;
    private boolean closed;

    QuerySession(String id) {
        this.id = id;
    }

    String id() {
        return id;
    }

    /** Claims the session for one request; false while another request runs (SESSION_BUSY). */
    boolean tryEnter() {
        return busy.compareAndSet(false, true);
    }

    void leave() {
        busy.set(false);
    }

    synchronized Transaction tx() {
        return tx;
    }

    synchronized void tx(Transaction tx) {
        this.tx = tx;
    }

    /** Attaches the keep-alive stream; false when one is attached already or the session is closed. */
    synchronized boolean attach(StreamObserver<SessionState> stream) {
        if (closed || attach != null) {
            return false;
        }
        attach = stream;
        stream.onNext(SessionState.newBuilder()
                .setStatus(tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode.SUCCESS)
                .build());
        return true;
    }

    /** Closes the session: the caller rolls back the returned open transaction; the attach stream ends. */
    synchronized Transaction close(boolean endStream) {
        if (closed) {
            return null;
        }
        closed = true;
        if (attach != null && endStream) {
            try {
                attach.onCompleted();
            } catch (RuntimeException ignored) {
                // the client is already gone
            }
        }
        Transaction open = tx;
        tx = null;
        return open;
    }
}
