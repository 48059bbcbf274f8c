package dev.egress.ydb.coordination;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tech.ydb.proto.coordination.SessionRequest;
import tech.ydb.proto.coordination.SessionResponse;
import tech.ydb.proto.coordination.v1.CoordinationServiceGrpc;

/**
 * A raw {@code Session} stream on the generated stubs, for protocol details the SDK hides (framing errors,
 * pings, stolen sessions, release by a waiter). Server pings are answered automatically unless disabled.
 */
final class RawSession implements AutoCloseable {

    static final Duration PATIENCE = Duration.ofSeconds(30);

    private final BlockingQueue<SessionResponse> received = new LinkedBlockingQueue<>();
    private final CompletableFuture<Status> closed = new CompletableFuture<>();
    private final ClientCallStreamObserver<SessionRequest> requests;
    private volatile boolean answerPings;

    RawSession(ManagedChannel channel, boolean answerPings) {
        this.answerPings = answerPings;
        CompletableFuture<ClientCallStreamObserver<SessionRequest>> started = new CompletableFuture<>();
        CoordinationServiceGrpc.newStub(channel).session(new ClientResponseObserver<SessionRequest, SessionResponse>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<SessionRequest> stream) {
                started.complete(stream);
            }

            @Override
            public void onNext(SessionResponse response) {
                if (response.hasPing() && RawSession.this.answerPings) {
                    send(SessionRequest.newBuilder()
                            .setPong(SessionRequest.PingPong.newBuilder()
                                    .setOpaque(response.getPing().getOpaque()))
                            .build());
                    return;
                }
                received.add(response);
            }

            @Override
            public void onError(Throwable t) {
                closed.complete(Status.fromThrowable(t));
            }

            @Override
            public void onCompleted() {
                closed.complete(Status.OK);
            }
        });
        this.requests = started.join();
    }

    static SessionRequest start(String path, long sessionId, long timeoutMillis, ByteString key, long seqNo) {
        return SessionRequest.newBuilder()
                .setSessionStart(SessionRequest.SessionStart.newBuilder()
                        .setPath(path)
                        .setSessionId(sessionId)
                        .setTimeoutMillis(timeoutMillis)
                        .setProtectionKey(key)
                        .setSeqNo(seqNo))
                .build();
    }

    synchronized void send(SessionRequest request) {
        requests.onNext(request);
    }

    /** Starts a new session and returns its id. */
    long startNew(String path, long timeoutMillis) {
        send(start(path, 0, timeoutMillis, ByteString.copyFromUtf8("key"), 0));
        SessionResponse response = next();
        if (!response.hasSessionStarted()) {
            throw new AssertionError("expected session_started, got " + response);
        }
        return response.getSessionStarted().getSessionId();
    }

    /** The next message other than an auto-answered ping. */
    SessionResponse next() {
        try {
            SessionResponse response = received.poll(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            if (response == null) {
                throw new AssertionError("no message within " + PATIENCE);
            }
            return response;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The gRPC status the call ended with. */
    Status awaitClosed() {
        return closed.orTimeout(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).join();
    }

    boolean isClosed() {
        return closed.isDone();
    }

    void halfClose() {
        requests.onCompleted();
    }

    void cancel() {
        requests.cancel("test cancels", null);
    }

    @Override
    public void close() {
        if (!closed.isDone()) {
            cancel();
        }
    }
}
