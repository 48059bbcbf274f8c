package dev.egress.ydb.coordination.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.description.NodeConfig;
import tech.ydb.coordination.description.SemaphoreChangedEvent;
import tech.ydb.coordination.description.SemaphoreDescription;
import tech.ydb.coordination.description.SemaphoreWatcher;
import tech.ydb.coordination.settings.CoordinationSessionSettings;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.coordination.settings.WatchSemaphoreMode;
import tech.ydb.core.Result;
import tech.ydb.core.Status;
import tech.ydb.core.StatusCode;
import tech.ydb.core.grpc.GrpcReadWriteStream;
import tech.ydb.core.grpc.GrpcRequestSettings;
import tech.ydb.proto.coordination.SessionRequest;
import tech.ydb.proto.coordination.SessionResponse;
import tech.ydb.proto.coordination.v1.CoordinationServiceGrpc;

/**
 * The coordination-node rules our registry relies on, written only against the official SDK's public API, so
 * that the same tests run against the embedded node and against real YDB. Each test works in its own node.
 */
/** Node RPCs and the session lifecycle: idempotent create, scheme errors, expiry, survival, re-attach, keepalive. */
public abstract class SessionConformanceSuite extends ConformanceFixture {

    // ------------------------------------------------------------------ node RPCs

    @Test
    void createNodeIsIdempotentAndKeepsTheFirstConfig() {
        String path = node + "-configured";
        NodeConfig first = NodeConfig.create()
                .withDurationsConfig(Duration.ofSeconds(2), Duration.ofSeconds(20))
                .withReadConsistencyMode(NodeConfig.ConsistencyMode.STRICT);
        NodeConfig second = NodeConfig.create().withDurationsConfig(Duration.ofSeconds(3), Duration.ofSeconds(25));

        assertThat(get(client.coordination().createNode(path, nodeSettings(first)))
                        .isSuccess())
                .isTrue();
        assertThat(get(client.coordination().createNode(path, nodeSettings(second)))
                        .isSuccess())
                .isTrue();

        NodeConfig described = get(client.coordination().describeNode(path)).getValue();
        assertThat(described.getSelfCheckPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(described.getSessionGracePeriod()).isEqualTo(Duration.ofSeconds(20));
        assertThat(described.getReadConsistencyMode()).isEqualTo(NodeConfig.ConsistencyMode.STRICT);
        get(client.coordination().dropNode(path));
    }

    @Test
    void alterNodeWithUnsetModesKeepsTheirValues() {
        String path = node + "-altered";
        NodeConfig relaxed = NodeConfig.create()
                .withReadConsistencyMode(NodeConfig.ConsistencyMode.RELAXED)
                .withAttachConsistencyMode(NodeConfig.ConsistencyMode.STRICT);
        assertThat(get(client.coordination().createNode(path, nodeSettings(relaxed)))
                        .isSuccess())
                .isTrue();

        NodeConfig change = NodeConfig.create().withAttachConsistencyMode(NodeConfig.ConsistencyMode.RELAXED);
        assertThat(get(client.coordination().alterNode(path, nodeSettings(change)))
                        .isSuccess())
                .isTrue();

        NodeConfig described = get(client.coordination().describeNode(path)).getValue();
        assertThat(described.getReadConsistencyMode()).isEqualTo(NodeConfig.ConsistencyMode.RELAXED);
        assertThat(described.getAttachConsistencyMode()).isEqualTo(NodeConfig.ConsistencyMode.RELAXED);
        get(client.coordination().dropNode(path));
    }

    @Test
    void droppingAMissingNodeIsASchemeError() {
        String path = node + "-dropped";
        assertThat(get(client.coordination().createNode(path)).isSuccess()).isTrue();
        assertThat(get(client.coordination().dropNode(path)).isSuccess()).isTrue();

        assertThat(get(client.coordination().dropNode(path)).getCode()).isEqualTo(StatusCode.SCHEME_ERROR);
    }

    @Test
    void describingAMissingNodeIsASchemeError() {
        Result<NodeConfig> result = get(client.coordination().describeNode(node + "-missing"));

        assertThat(result.getStatus().getCode()).isEqualTo(StatusCode.SCHEME_ERROR);
    }

    // ------------------------------------------------------------------ sessions

    @Test
    void sessionsGetDistinctPositiveIds() {
        CoordinationSession first = connect(client, SESSION_TIMEOUT);
        CoordinationSession second = connect(client, SESSION_TIMEOUT);

        assertThat(first.getId()).isPositive();
        assertThat(second.getId()).isPositive().isNotEqualTo(first.getId());
        assertThat(first.getState()).isEqualTo(CoordinationSession.State.CONNECTED);
    }

    @Test
    void sessionTimeoutAboveThirtyMinutesIsRejected() {
        CoordinationSession session = client.coordination()
                .createSession(
                        node,
                        CoordinationSessionSettings.newBuilder()
                                .withConnectTimeout(Duration.ofMinutes(31))
                                .build());
        closeables.add(() -> session.stop().get(5, TimeUnit.SECONDS));

        assertThat(get(session.connect()).getCode()).isEqualTo(StatusCode.BAD_REQUEST);
    }

    @Test
    void stoppedSessionReleasesItsSemaphoresAtOnce() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(watcher, 10);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("a"), PATIENCE))
                        .isSuccess())
                .isTrue();
        SemaphoreWatcher watch = watchOwners(watcher);

        assertThat(get(owner.stop()).isSuccess()).isTrue();

        assertThat(get(watch.getChangedFuture()).getValue().isOwnersChanged()).isTrue();
        assertThat(describe(watcher).getOwnersList()).isEmpty();
    }

    @Test
    void detachedSessionKeepsItsSemaphoresWithinItsTimeout() {
        Client doomed = newClient();
        CoordinationSession owner = connect(doomed, Duration.ofSeconds(20));
        CoordinationSession observer = connect(client, SESSION_TIMEOUT);
        createSemaphore(observer, 10);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("still here"), PATIENCE))
                        .isSuccess())
                .isTrue();
        long id = owner.getId();

        doomed.transport().close(); // the channel dies; the session is never stopped

        // Well within the 20 s timeout the detached session still owns its slot, data included.
        SemaphoreDescription described = describe(observer);
        assertThat(described.getOwnersList()).singleElement().satisfies(o -> {
            assertThat(o.getId()).isEqualTo(id);
            assertThat(o.getData()).isEqualTo(bytes("still here"));
        });
    }

    @Test
    void detachedSessionKeepsItsSemaphoresForItsTimeoutThenExpires() {
        Duration timeout = Duration.ofSeconds(3);
        Client doomed = newClient();
        CoordinationSession owner = connect(doomed, timeout);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(watcher, 10);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("doomed"), PATIENCE))
                        .isSuccess())
                .isTrue();
        SemaphoreWatcher watch = watchOwners(watcher);

        long killedAt = System.nanoTime();
        doomed.transport().close(); // the channel dies; the session is never stopped

        SemaphoreChangedEvent event = get(watch.getChangedFuture()).getValue();
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
        assertThat(event.isOwnersChanged()).isTrue();
        // Lower bound only (the session had to survive its timeout); lateness is never asserted.
        assertThat(elapsedMillis).isGreaterThanOrEqualTo(timeout.toMillis() - 250);
        assertThat(describe(watcher).getOwnersList()).isEmpty();
    }

    @Test
    void brokenStreamReattachesTheSameSessionKeepingItsSemaphores() {
        Client flaky = newClient();
        CoordinationSession owner = connect(flaky, SESSION_TIMEOUT);
        List<CoordinationSession.State> states = new CopyOnWriteArrayList<>();
        owner.addStateListener(states::add);
        CoordinationSession observer = connect(client, SESSION_TIMEOUT);
        createSemaphore(observer, 10);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("kept"), PATIENCE))
                        .isSuccess())
                .isTrue();
        SemaphoreWatcher ownWatch = get(owner.watchSemaphore(
                        SEMAPHORE, DescribeSemaphoreMode.WITH_OWNERS, WatchSemaphoreMode.WATCH_DATA))
                .getValue();
        long id = owner.getId();

        assertThat(flaky.cutter().cut()).isPositive();

        await().atMost(PATIENCE).until(() -> states.contains(CoordinationSession.State.RECONNECTED));
        assertThat(owner.getId()).isEqualTo(id);
        // A watch does not survive the stream (the SDK fails it; the server drops it on re-attach).
        assertThat(get(ownWatch.getChangedFuture()).isSuccess()).isFalse();
        SemaphoreDescription described = describe(observer);
        assertThat(described.getOwnersList()).singleElement().satisfies(o -> {
            assertThat(o.getId()).isEqualTo(id);
            assertThat(o.getData()).isEqualTo(bytes("kept"));
        });
        // The re-attached session works as before, new watches included.
        SemaphoreWatcher newWatch = get(owner.watchSemaphore(
                        SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY, WatchSemaphoreMode.WATCH_DATA))
                .getValue();
        assertThat(get(observer.updateSemaphore(SEMAPHORE, bytes("v2"))).isSuccess())
                .isTrue();
        assertThat(get(newWatch.getChangedFuture()).getValue().isDataChanged()).isTrue();
    }

    /**
     * The upstream SDK's {@code StreamIntegrationTest.closeWithoutStartTest}, on the SDK's own stream call (2.2.10's
     * session API cannot half-close before starting): a stream the client half-closes before any
     * {@code session_start} ends with gRPC {@code CANCELLED}, which the SDK reports as {@code CLIENT_CANCELLED}
     * (newer SDKs' {@code stop()} answers exactly that), and nothing is sent on it.
     */
    @Test
    void streamHalfClosedBeforeSessionStartEndsClientCancelled() {
        GrpcReadWriteStream<SessionResponse, SessionRequest> stream = client.transport()
                .readWriteStreamCall(
                        CoordinationServiceGrpc.getSessionMethod(),
                        GrpcRequestSettings.newBuilder().build());
        List<SessionResponse> responses = new CopyOnWriteArrayList<>();
        CompletableFuture<Status> finished = stream.start(responses::add);

        stream.close();

        Status status = get(finished);
        assertThat(status.getCode()).as("%s", status).isEqualTo(StatusCode.CLIENT_CANCELLED);
        assertThat(responses).isEmpty();
    }

    @Test
    void idleSessionStaysConnectedPastThirtyFiveSeconds() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        List<CoordinationSession.State> states = new CopyOnWriteArrayList<>();
        session.addStateListener(states::add);

        await().during(Duration.ofSeconds(36))
                .atMost(Duration.ofSeconds(60))
                .until(() -> session.getState() == CoordinationSession.State.CONNECTED && states.isEmpty());
        assertThat(get(session.createSemaphore(SEMAPHORE, 1)).isSuccess()).isTrue();
    }
}
