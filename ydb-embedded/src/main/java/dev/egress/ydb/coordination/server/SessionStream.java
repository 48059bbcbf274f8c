package dev.egress.ydb.coordination.server;

import dev.egress.ydb.coordination.node.CoordinationNode;
import dev.egress.ydb.coordination.node.CoordinationNodes;
import dev.egress.ydb.coordination.node.Responses;
import dev.egress.ydb.coordination.node.SessionPeer;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.SessionRequest;
import tech.ydb.proto.coordination.SessionResponse;

/**
 * One {@code Session} gRPC stream, the counterpart of YDB's session actor: it checks the framing (first message
 * {@code session_start}, no second start, empty and unsupported requests, a half-close before the start), runs
 * the ping/pong liveness check, and hands semaphore requests to the node. Writes are serialised on this object
 * because they come from the node thread, the ping timer and gRPC threads.
 */
final class SessionStream implements StreamObserver<SessionRequest>, SessionPeer {

    private static final Logger log = LoggerFactory.getLogger(SessionStream.class);
    private static final long MIN_PING_PERIOD_MILLIS = 10;
    private static final long MAX_PING_PERIOD_MILLIS = 5_000;

    private final ServerCallStreamObserver<SessionResponse> out;
    private final CoordinationNodes nodes;
    private final ScheduledExecutorService pinger;
    private final Consumer<SessionStream> onClosed;

    /** Set once by the first message; also read by the cancel and context callbacks, hence volatile. */
    private volatile CoordinationNode node;
    /** Read and written only by inbound calls, which gRPC serialises. */
    private boolean startSeen;

    // guarded by this
    private boolean closed;
    private long pendingPing;
    private ScheduledFuture<?> pingTask;

    SessionStream(
            ServerCallStreamObserver<SessionResponse> out,
            CoordinationNodes nodes,
            ScheduledExecutorService pinger,
            Consumer<SessionStream> onClosed) {
        this.out = out;
        this.nodes = nodes;
        this.pinger = pinger;
        this.onClosed = onClosed;
        // With a cancel handler, writes after a client cancel are dropped instead of throwing.
        out.setOnCancelHandler(this::cancelled);
    }

    @Override
    public void onNext(SessionRequest request) {
        if (isClosed()) {
            return; // whatever a client sends after its failure or stop is ignored, as by YDB's actor
        }
        if (!startSeen) {
            start(request);
            return;
        }
        switch (request.getRequestCase()) {
            case PING ->
                send(SessionResponse.newBuilder()
                        .setPong(SessionResponse.PingPong.newBuilder()
                                .setOpaque(request.getPing().getOpaque()))
                        .build());
            case PONG -> pong(request.getPong().getOpaque());
            case SESSION_START -> fail(StatusCode.BAD_REQUEST, "Session cannot be started twice");
            case SESSION_STOP -> node.stop(this);
            case ACQUIRE_SEMAPHORE,
                    RELEASE_SEMAPHORE,
                    DESCRIBE_SEMAPHORE,
                    CREATE_SEMAPHORE,
                    UPDATE_SEMAPHORE,
                    DELETE_SEMAPHORE -> node.handle(this, request);
            case REQUEST_NOT_SET -> fail(StatusCode.BAD_REQUEST, "Empty request");
            default -> fail(StatusCode.BAD_REQUEST, "Unimplemented request");
        }
    }

    private void start(SessionRequest request) {
        startSeen = true;
        if (!request.hasSessionStart()) {
            // The only framing error YDB reports as a gRPC status rather than in-band.
            closeWithStatus(Status.INVALID_ARGUMENT.withDescription("First message must be a SessionStart"));
            return;
        }
        SessionRequest.SessionStart start = request.getSessionStart();
        if (start.getPath().isEmpty() || "/".equals(start.getPath())) {
            fail(StatusCode.BAD_REQUEST, "KesusPath cannot be empty");
            return;
        }
        CoordinationNode found = nodes.find(start.getPath()).orElse(null);
        if (found == null) {
            // YDB's proxy answers a path that is not a coordination node this way.
            fail(StatusCode.NOT_FOUND, "Kesus not found");
            return;
        }
        node = found;
        found.attach(this, start);
        if (isClosed()) {
            // The call died while we were resolving: a detach queued before the attach would have found nothing,
            // so queue one behind it, or the session would stay attached to a dead stream forever.
            found.detach(this);
        }
    }

    @Override
    public void onError(Throwable t) {
        log.debug("Session stream ended by the client: {}", t.toString());
        streamEnded();
    }

    @Override
    public void onCompleted() {
        if (!startSeen) {
            // Half-closed before any session_start: YDB ends such a call CANCELLED, which the SDK reports as
            // CLIENT_CANCELLED (its closeWithoutStartTest); finishing with OK would read as a stopped session.
            closeWithStatus(Status.CANCELLED.withDescription("Session stream closed before SessionStart"));
            return;
        }
        // Half-close: answer what is queued on the node first, then finish (see CoordinationNode.detach).
        streamEnded();
    }

    private void cancelled() {
        synchronized (this) {
            closeLocked();
        }
        streamEnded();
    }

    /**
     * The gRPC call is over, whichever way. Always (re)detaches: detaching a stream the node no longer knows is a
     * no-op, and this is the one callback that is guaranteed to come, e.g. after a failed write.
     */
    void callEnded() {
        synchronized (this) {
            closeLocked();
        }
        streamEnded();
    }

    private void streamEnded() {
        CoordinationNode attachedNode = node;
        if (attachedNode != null) {
            attachedNode.detach(this);
        } else {
            finish();
        }
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- SessionPeer

    @Override
    public synchronized void send(SessionResponse response) {
        if (closed) {
            return;
        }
        try {
            out.onNext(response);
        } catch (RuntimeException e) {
            log.debug("Session stream write failed: {}", e.toString());
            closeLocked();
        }
    }

    @Override
    public synchronized void onAttached(long timeoutMillis) {
        if (closed || pingTask != null) {
            return;
        }
        long period = Math.max(
                MIN_PING_PERIOD_MILLIS,
                Math.min(
                        MAX_PING_PERIOD_MILLIS,
                        Long.compareUnsigned(timeoutMillis, 3 * MAX_PING_PERIOD_MILLIS) > 0
                                ? MAX_PING_PERIOD_MILLIS
                                : timeoutMillis / 3));
        sendPing();
        try {
            pingTask = pinger.scheduleAtFixedRate(this::pingTick, period, period, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // server shutting down
        }
    }

    @Override
    public void fail(StatusCode status, String message) {
        boolean first;
        synchronized (this) {
            first = !closed;
            if (first) {
                try {
                    out.onNext(Responses.failure(status, message));
                    out.onCompleted();
                } catch (RuntimeException e) {
                    log.debug("Session stream failure write failed: {}", e.toString());
                }
                closeLocked();
            }
        }
        if (first) {
            // The client may keep the call open; the session must still detach now.
            streamEnded();
        }
    }

    @Override
    public synchronized void finish() {
        if (closed) {
            return;
        }
        try {
            out.onCompleted();
        } catch (RuntimeException e) {
            log.debug("Session stream completion failed: {}", e.toString());
        }
        closeLocked();
    }

    // ---------------------------------------------------------------- pings

    private synchronized void sendPing() {
        long opaque;
        do {
            opaque = ThreadLocalRandom.current().nextLong();
        } while (opaque == 0);
        pendingPing = opaque;
        send(SessionResponse.newBuilder()
                .setPing(SessionResponse.PingPong.newBuilder().setOpaque(opaque))
                .build());
    }

    private void pingTick() {
        boolean timedOut;
        synchronized (this) {
            if (closed) {
                stopPings();
                return;
            }
            timedOut = pendingPing != 0;
            if (!timedOut) {
                sendPing();
            }
        }
        if (timedOut) {
            fail(StatusCode.TIMEOUT, "Ping timeout");
        }
    }

    private void pong(long opaque) {
        boolean mismatch;
        synchronized (this) {
            // As YDB: compared with the outstanding ping, which is 0 once answered.
            mismatch = opaque != pendingPing;
            pendingPing = mismatch ? pendingPing : 0;
        }
        if (mismatch) {
            fail(StatusCode.BAD_REQUEST, "Pong data mismatch");
        }
    }

    private void stopPings() {
        if (pingTask != null) {
            pingTask.cancel(false);
            pingTask = null;
        }
    }

    // ---------------------------------------------------------------- closing

    private synchronized void closeWithStatus(Status status) {
        if (closed) {
            return;
        }
        try {
            out.onError(status.asRuntimeException());
        } catch (RuntimeException e) {
            log.debug("Session stream close failed: {}", e.toString());
        }
        closeLocked();
    }

    private void closeLocked() {
        if (!closed) {
            closed = true;
            stopPings();
            onClosed.accept(this);
        }
    }
}
