package dev.egress.ydb.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.SessionRequest;
import tech.ydb.proto.coordination.SessionResponse;
import tech.ydb.proto.coordination.Unsupported;

/** Session-stream rules below the SDK's API, checked on the wire with the generated stubs. */
@Execution(ExecutionMode.CONCURRENT)
class SessionProtocolIT {

    @AutoClose
    private static WireNode node;

    private static EmbeddedCoordinationNode server;
    private static ManagedChannel channel;
    private final List<RawSession> sessions = new ArrayList<>();
    private String path;

    @BeforeAll
    static void startServer() {
        node = WireNode.start();
        server = node.server();
        channel = node.channel();
    }

    @BeforeEach
    void createNode() {
        path = node.createNode("protocol-");
    }

    @AfterEach
    void closeSessions() {
        sessions.forEach(RawSession::close);
        assertThat(server.stateReport().violations()).isEmpty();
    }

    @Test
    void firstMessageOtherThanSessionStartIsInvalidArgument() {
        RawSession raw = open(true);
        raw.send(acquire(1, "s", 1, 0));

        Status status = raw.awaitClosed();
        assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(status.getDescription()).isEqualTo("First message must be a SessionStart");
    }

    @Test
    void startedSessionGetsItsIdAndAnImmediatePing() {
        RawSession raw = open(false);
        raw.send(RawSession.start(path, 0, 5_000, ByteString.EMPTY, 0));

        SessionResponse started = raw.next();
        assertThat(started.getSessionStarted().getSessionId()).isPositive();
        SessionResponse ping = raw.next();
        assertThat(ping.hasPing()).isTrue();
        assertThat(ping.getPing().getOpaque()).isNotZero();
    }

    @Test
    void missedPongEndsTheStreamWithPingTimeout() {
        RawSession raw = open(false);
        raw.send(RawSession.start(path, 0, 300, ByteString.EMPTY, 0)); // ping every 100 ms

        assertThat(raw.next().hasSessionStarted()).isTrue();
        assertThat(raw.next().hasPing()).isTrue();
        SessionResponse failure = raw.next();
        assertFailure(failure, StatusCode.TIMEOUT, "Ping timeout");
        assertThat(raw.awaitClosed().isOk()).isTrue();
    }

    @Test
    void pongWithWrongOpaqueIsBadRequest() {
        RawSession raw = open(false);
        raw.send(RawSession.start(path, 0, 5_000, ByteString.EMPTY, 0));
        assertThat(raw.next().hasSessionStarted()).isTrue();
        long opaque = raw.next().getPing().getOpaque();

        raw.send(SessionRequest.newBuilder()
                .setPong(SessionRequest.PingPong.newBuilder().setOpaque(opaque + 1))
                .build());

        assertFailure(raw.next(), StatusCode.BAD_REQUEST, "Pong data mismatch");
        assertThat(raw.awaitClosed().isOk()).isTrue();
    }

    @Test
    void clientPingIsAnsweredWithTheSameOpaque() {
        RawSession raw = open(true);
        raw.startNew(path, 5_000);

        raw.send(SessionRequest.newBuilder()
                .setPing(SessionRequest.PingPong.newBuilder().setOpaque(42))
                .build());

        assertThat(raw.next().getPong().getOpaque()).isEqualTo(42);
    }

    @Test
    void emptyRequestIsBadRequest() {
        RawSession raw = open(true);
        raw.startNew(path, 5_000);

        raw.send(SessionRequest.getDefaultInstance());

        assertFailure(raw.next(), StatusCode.BAD_REQUEST, "Empty request");
        assertThat(raw.awaitClosed().isOk()).isTrue();
    }

    @Test
    void secondSessionStartIsBadRequest() {
        RawSession raw = open(true);
        raw.startNew(path, 5_000);

        raw.send(RawSession.start(path, 0, 5_000, ByteString.EMPTY, 0));

        assertFailure(raw.next(), StatusCode.BAD_REQUEST, "Session cannot be started twice");
    }

    @Test
    void unsupportedRequestIsBadRequest() {
        RawSession raw = open(true);
        raw.startNew(path, 5_000);

        raw.send(SessionRequest.newBuilder()
                .setUnsupported5(Unsupported.getDefaultInstance())
                .build());

        assertFailure(raw.next(), StatusCode.BAD_REQUEST, "Unimplemented request");
    }

    @Test
    void sessionStopAnswersStoppedAndFinishesTheCall() {
        RawSession raw = open(true);
        long id = raw.startNew(path, 5_000);

        raw.send(SessionRequest.newBuilder()
                .setSessionStop(SessionRequest.SessionStop.getDefaultInstance())
                .build());

        assertThat(raw.next().getSessionStopped().getSessionId()).isEqualTo(id);
        assertThat(raw.awaitClosed().isOk()).isTrue();
    }

    @Test
    void unknownSessionIdIsSessionExpired() {
        RawSession raw = open(true);
        raw.send(RawSession.start(path, 987_654, 5_000, ByteString.EMPTY, 0));

        assertFailure(raw.next(), StatusCode.SESSION_EXPIRED, "Session does not exist");
        assertThat(raw.awaitClosed().isOk()).isTrue();
    }

    @Test
    void sessionOnAMissingNodeIsRefused() {
        RawSession raw = open(true);
        raw.send(RawSession.start(path + "-missing", 0, 5_000, ByteString.EMPTY, 0));

        assertFailure(raw.next(), StatusCode.NOT_FOUND, "Kesus not found");
    }

    @Test
    void sessionTimeoutAboveThirtyMinutesIsBadRequest() {
        RawSession raw = open(true);
        raw.send(RawSession.start(path, 0, 30L * 60 * 1000 + 1, ByteString.EMPTY, 0));

        assertFailure(raw.next(), StatusCode.BAD_REQUEST, "Session timeout is out of range");
    }

    @Test
    void attachingAnotherStreamStealsTheSessionFromTheOldOne() {
        RawSession first = open(true);
        long id = first.startNew(path, 5_000);

        RawSession second = open(true);
        second.send(RawSession.start(path, id, 5_000, ByteString.copyFromUtf8("key"), 1));

        assertThat(second.next().getSessionStarted().getSessionId()).isEqualTo(id);
        assertThat(first.next().getFailure().getStatus()).isEqualTo(StatusCode.BAD_SESSION);
        assertThat(first.awaitClosed().isOk()).isTrue();
    }

    @Test
    void attachWithAWrongProtectionKeyOrAnOlderSeqNoIsBadSession() {
        RawSession owner = open(true);
        owner.send(RawSession.start(path, 0, 5_000, ByteString.copyFromUtf8("key"), 5));
        long id = owner.next().getSessionStarted().getSessionId();

        RawSession thief = open(true);
        thief.send(RawSession.start(path, id, 5_000, ByteString.copyFromUtf8("other"), 6));
        assertFailure(thief.next(), StatusCode.BAD_SESSION, "Attach request protection key mismatch");

        RawSession stale = open(true);
        stale.send(RawSession.start(path, id, 5_000, ByteString.copyFromUtf8("key"), 4));
        assertFailure(stale.next(), StatusCode.BAD_SESSION, "Attach request is out of sequence");
    }

    @Test
    void waiterGetsPendingAndItsReleaseAbortsTheAcquire() {
        RawSession owner = open(true);
        owner.startNew(path, 5_000);
        owner.send(create(1, "s", 1));
        assertThat(owner.next().getCreateSemaphoreResult().getStatus()).isEqualTo(StatusCode.SUCCESS);
        owner.send(acquire(2, "s", 1, 60_000));
        assertThat(owner.next().getAcquireSemaphoreResult().getAcquired()).isTrue();

        RawSession waiter = open(true);
        waiter.startNew(path, 5_000);
        waiter.send(acquire(1, "s", 1, 60_000));
        assertThat(waiter.next().getAcquireSemaphorePending().getReqId()).isEqualTo(1);

        waiter.send(SessionRequest.newBuilder()
                .setReleaseSemaphore(
                        SessionRequest.ReleaseSemaphore.newBuilder().setReqId(2).setName("s"))
                .build());

        SessionResponse aborted = waiter.next();
        assertThat(aborted.getAcquireSemaphoreResult().getReqId()).isEqualTo(1);
        assertThat(aborted.getAcquireSemaphoreResult().getStatus()).isEqualTo(StatusCode.ABORTED);
        SessionResponse released = waiter.next();
        assertThat(released.getReleaseSemaphoreResult().getReqId()).isEqualTo(2);
        assertThat(released.getReleaseSemaphoreResult().getReleased()).isTrue();
    }

    @Test
    void releasingWhatIsNotHeldReportsNotReleased() {
        RawSession raw = open(true);
        raw.startNew(path, 5_000);

        raw.send(SessionRequest.newBuilder()
                .setReleaseSemaphore(
                        SessionRequest.ReleaseSemaphore.newBuilder().setReqId(7).setName("nothing"))
                .build());

        SessionResponse.ReleaseSemaphoreResult result = raw.next().getReleaseSemaphoreResult();
        assertThat(result.getStatus()).isEqualTo(StatusCode.SUCCESS);
        assertThat(result.getReleased()).isFalse();
    }

    @Test
    void replacedWatchIsAnsweredBeforeTheNewDescribeAndRepliesPrecedeNotifications() {
        RawSession raw = open(true);
        raw.startNew(path, 5_000);
        raw.send(create(1, "s", 1));
        raw.next();
        raw.send(watch(2, "s"));
        assertThat(raw.next().getDescribeSemaphoreResult().getWatchAdded()).isTrue();

        raw.send(watch(3, "s"));
        SessionResponse replaced = raw.next();
        assertThat(replaced.getDescribeSemaphoreChanged().getReqId()).isEqualTo(2);
        assertThat(replaced.getDescribeSemaphoreChanged().getDataChanged()).isFalse();
        assertThat(replaced.getDescribeSemaphoreChanged().getOwnersChanged()).isFalse();
        assertThat(raw.next().getDescribeSemaphoreResult().getReqId()).isEqualTo(3);

        // The session's own acquire: the result comes first, then its own owners watch fires.
        raw.send(acquire(4, "s", 1, 0));
        assertThat(raw.next().getAcquireSemaphoreResult().getReqId()).isEqualTo(4);
        SessionResponse changed = raw.next();
        assertThat(changed.getDescribeSemaphoreChanged().getReqId()).isEqualTo(3);
        assertThat(changed.getDescribeSemaphoreChanged().getOwnersChanged()).isTrue();
    }

    @Test
    void deleteNotifiesWatchersBeforeItsOwnResultAsYdbDoes() {
        RawSession raw = open(true);
        raw.startNew(path, 5_000);
        raw.send(create(1, "s", 1));
        raw.next();
        raw.send(watch(2, "s"));
        raw.next();

        raw.send(SessionRequest.newBuilder()
                .setDeleteSemaphore(SessionRequest.DeleteSemaphore.newBuilder()
                        .setReqId(3)
                        .setName("s")
                        .setForce(true))
                .build());

        SessionResponse.DescribeSemaphoreChanged changed = raw.next().getDescribeSemaphoreChanged();
        assertThat(changed.getReqId()).isEqualTo(2);
        assertThat(changed.getDataChanged()).isTrue();
        assertThat(changed.getOwnersChanged()).isTrue();
        SessionResponse.DeleteSemaphoreResult deleted = raw.next().getDeleteSemaphoreResult();
        assertThat(deleted.getReqId()).isEqualTo(3);
        assertThat(deleted.getStatus()).isEqualTo(StatusCode.SUCCESS);
    }

    @Test
    void unsignedLimitsAreComparedAsUnsigned() {
        RawSession raw = open(true);
        raw.startNew(path, 5_000);
        raw.send(create(1, "huge", -1L)); // limit 2^64-1
        assertThat(raw.next().getCreateSemaphoreResult().getStatus()).isEqualTo(StatusCode.SUCCESS);

        raw.send(acquire(2, "huge", Long.MIN_VALUE, 0)); // 2^63: fits under 2^64-1
        assertThat(raw.next().getAcquireSemaphoreResult().getAcquired()).isTrue();
        raw.send(acquire(3, "huge", Long.MIN_VALUE + 1, 0)); // more than owned: not allowed to grow
        assertThat(raw.next().getAcquireSemaphoreResult().getStatus()).isEqualTo(StatusCode.BAD_REQUEST);
    }

    private RawSession open(boolean answerPings) {
        RawSession raw = new RawSession(channel, answerPings);
        sessions.add(raw);
        return raw;
    }

    static SessionRequest acquire(long reqId, String name, long count, long timeoutMillis) {
        return SessionRequest.newBuilder()
                .setAcquireSemaphore(SessionRequest.AcquireSemaphore.newBuilder()
                        .setReqId(reqId)
                        .setName(name)
                        .setCount(count)
                        .setTimeoutMillis(timeoutMillis))
                .build();
    }

    static SessionRequest create(long reqId, String name, long limit) {
        return SessionRequest.newBuilder()
                .setCreateSemaphore(SessionRequest.CreateSemaphore.newBuilder()
                        .setReqId(reqId)
                        .setName(name)
                        .setLimit(limit))
                .build();
    }

    private static SessionRequest watch(long reqId, String name) {
        return SessionRequest.newBuilder()
                .setDescribeSemaphore(SessionRequest.DescribeSemaphore.newBuilder()
                        .setReqId(reqId)
                        .setName(name)
                        .setWatchData(true)
                        .setWatchOwners(true))
                .build();
    }

    private static void assertFailure(SessionResponse response, StatusCode status, String message) {
        assertThat(response.hasFailure()).as("failure expected: %s", response).isTrue();
        assertThat(response.getFailure().getStatus()).isEqualTo(status);
        assertThat(response.getFailure().getIssues(0).getMessage()).isEqualTo(message);
    }
}
