package dev.egress.coordination.conformance;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.SemaphoreLease;
import tech.ydb.coordination.description.NodeConfig;
import tech.ydb.coordination.description.SemaphoreChangedEvent;
import tech.ydb.coordination.description.SemaphoreDescription;
import tech.ydb.coordination.description.SemaphoreWatcher;
import tech.ydb.coordination.settings.CoordinationNodeSettings;
import tech.ydb.coordination.settings.CoordinationSessionSettings;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.coordination.settings.WatchSemaphoreMode;
import tech.ydb.core.Result;
import tech.ydb.core.Status;
import tech.ydb.core.StatusCode;
import tech.ydb.core.grpc.GrpcTransport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The coordination-node rules our registry relies on, written only against the official SDK's public API, so
 * that the same tests run against the embedded node and against real YDB. Each test works in its own node.
 */
@Execution(ExecutionMode.CONCURRENT)
public abstract class CoordinationConformanceSuite {

    /** Generous: the machine is shared and slow; nothing here asserts speed. */
    protected static final Duration PATIENCE = Duration.ofSeconds(30);
    protected static final Duration SESSION_TIMEOUT = Duration.ofSeconds(5);
    private static final String SEMAPHORE = "registry";

    private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();
    private Client client;
    private String node;

    /** The SDK connection string of the server under test, e.g. {@code grpc://127.0.0.1:2136/local}. */
    protected abstract String connectionString();

    /** One transport with its coordination client and a way to cut its session streams. */
    protected record Client(GrpcTransport transport, CoordinationClient coordination, StreamBreaker breaker) {
    }

    @BeforeEach
    void createNode() {
        client = newClient();
        node = "conformance-" + UUID.randomUUID();
        assertThat(get(client.coordination().createNode(node))).isEqualTo(Status.SUCCESS);
    }

    @AfterEach
    void cleanUp() {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            try {
                closeables.get(i).close();
            } catch (Exception e) {
                // best effort: a test may have killed the transport on purpose
            }
        }
    }

    // ------------------------------------------------------------------ node RPCs

    @Test
    void createNodeIsIdempotentAndKeepsTheFirstConfig() {
        String path = node + "-configured";
        NodeConfig first = NodeConfig.create().withDurationsConfig(Duration.ofSeconds(2), Duration.ofSeconds(20))
                .withReadConsistencyMode(NodeConfig.ConsistencyMode.STRICT);
        NodeConfig second = NodeConfig.create().withDurationsConfig(Duration.ofSeconds(3), Duration.ofSeconds(25));

        assertThat(get(client.coordination().createNode(path, nodeSettings(first))).isSuccess()).isTrue();
        assertThat(get(client.coordination().createNode(path, nodeSettings(second))).isSuccess()).isTrue();

        NodeConfig described = get(client.coordination().describeNode(path)).getValue();
        assertThat(described.getSelfCheckPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(described.getSessionGracePeriod()).isEqualTo(Duration.ofSeconds(20));
        assertThat(described.getReadConsistencyMode()).isEqualTo(NodeConfig.ConsistencyMode.STRICT);
        get(client.coordination().dropNode(path));
    }

    @Test
    void alterNodeWithUnsetModesKeepsTheirValues() {
        String path = node + "-altered";
        NodeConfig relaxed = NodeConfig.create().withReadConsistencyMode(NodeConfig.ConsistencyMode.RELAXED)
                .withAttachConsistencyMode(NodeConfig.ConsistencyMode.STRICT);
        assertThat(get(client.coordination().createNode(path, nodeSettings(relaxed))).isSuccess()).isTrue();

        NodeConfig change = NodeConfig.create().withAttachConsistencyMode(NodeConfig.ConsistencyMode.RELAXED);
        assertThat(get(client.coordination().alterNode(path, nodeSettings(change))).isSuccess()).isTrue();

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
        CoordinationSession session = client.coordination().createSession(node,
                CoordinationSessionSettings.newBuilder().withConnectTimeout(Duration.ofMinutes(31)).build());
        closeables.add(() -> session.stop().get(5, TimeUnit.SECONDS));

        assertThat(get(session.connect()).getCode()).isEqualTo(StatusCode.BAD_REQUEST);
    }

    @Test
    void stoppedSessionReleasesItsSemaphoresAtOnce() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(watcher, 10);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("a"), PATIENCE)).isSuccess()).isTrue();
        SemaphoreWatcher watch = watchOwners(watcher);

        assertThat(get(owner.stop()).isSuccess()).isTrue();

        assertThat(get(watch.getChangedFuture()).getValue().isOwnersChanged()).isTrue();
        assertThat(describe(watcher).getOwnersList()).isEmpty();
    }

    @Test
    void detachedSessionKeepsItsSemaphoresForItsTimeoutThenExpires() {
        Duration timeout = Duration.ofSeconds(3);
        Client doomed = newClient();
        CoordinationSession owner = connect(doomed, timeout);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(watcher, 10);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("doomed"), PATIENCE)).isSuccess()).isTrue();
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
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("kept"), PATIENCE)).isSuccess()).isTrue();
        SemaphoreWatcher ownWatch = get(owner.watchSemaphore(SEMAPHORE, DescribeSemaphoreMode.WITH_OWNERS,
                WatchSemaphoreMode.WATCH_DATA)).getValue();
        long id = owner.getId();

        assertThat(flaky.breaker().breakAll()).isPositive();

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
        SemaphoreWatcher newWatch = get(owner.watchSemaphore(SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY,
                WatchSemaphoreMode.WATCH_DATA)).getValue();
        assertThat(get(observer.updateSemaphore(SEMAPHORE, bytes("v2"))).isSuccess()).isTrue();
        assertThat(get(newWatch.getChangedFuture()).getValue().isDataChanged()).isTrue();
    }

    @Test
    void idleSessionStaysConnectedPastThirtyFiveSeconds() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        List<CoordinationSession.State> states = new CopyOnWriteArrayList<>();
        session.addStateListener(states::add);

        await().during(Duration.ofSeconds(36)).atMost(Duration.ofSeconds(60))
                .until(() -> session.getState() == CoordinationSession.State.CONNECTED && states.isEmpty());
        assertThat(get(session.createSemaphore(SEMAPHORE, 1)).isSuccess()).isTrue();
    }

    // ------------------------------------------------------------------ create / update / delete

    @Test
    void createSemaphoreRejectsZeroLimitAndDuplicates() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);

        assertThat(get(session.createSemaphore(SEMAPHORE, 0)).getCode()).isEqualTo(StatusCode.BAD_REQUEST);
        assertThat(get(session.createSemaphore(SEMAPHORE, 5, bytes("d"))).isSuccess()).isTrue();
        assertThat(get(session.createSemaphore(SEMAPHORE, 5)).getCode()).isEqualTo(StatusCode.ALREADY_EXISTS);

        SemaphoreDescription described = describe(session);
        assertThat(described.getLimit()).isEqualTo(5);
        assertThat(described.getData()).isEqualTo(bytes("d"));
        assertThat(described.isEphemeral()).isFalse();
        assertThat(described.getCount()).isZero();
    }

    @Test
    void updateSemaphoreReplacesItsDataAndFailsForAMissingOne() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 1);

        assertThat(get(session.updateSemaphore(SEMAPHORE, bytes("new"))).isSuccess()).isTrue();
        assertThat(describe(session).getData()).isEqualTo(bytes("new"));
        assertThat(get(session.updateSemaphore("missing", bytes("x"))).getCode()).isEqualTo(StatusCode.NOT_FOUND);
    }

    @Test
    void deleteSemaphoreRefusesMissingAndBusyOnes() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 1);
        SemaphoreLease lease = get(session.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();

        assertThat(get(session.deleteSemaphore("missing")).getCode()).isEqualTo(StatusCode.NOT_FOUND);
        assertThat(get(session.deleteSemaphore(SEMAPHORE, false)).getCode())
                .isEqualTo(StatusCode.PRECONDITION_FAILED);

        get(lease.release());
        assertThat(get(session.deleteSemaphore(SEMAPHORE, false)).isSuccess()).isTrue();
        assertThat(get(session.describeSemaphore(SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY)).getStatus().getCode())
                .isEqualTo(StatusCode.NOT_FOUND);
    }

    @Test
    void forcedDeleteAbortsWaitersAndFiresEveryWatch() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession waiter = connect(client, SESSION_TIMEOUT);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).isSuccess()).isTrue();
        CompletableFuture<Result<SemaphoreLease>> waiting = waiter.acquireSemaphore(SEMAPHORE, 1, PATIENCE);
        awaitWaiters(watcher, 1);
        SemaphoreWatcher watch = get(watcher.watchSemaphore(SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY,
                WatchSemaphoreMode.WATCH_DATA)).getValue();

        assertThat(get(owner.deleteSemaphore(SEMAPHORE, true)).isSuccess()).isTrue();

        assertThat(get(waiting).getStatus().getCode()).isEqualTo(StatusCode.ABORTED);
        SemaphoreChangedEvent event = get(watch.getChangedFuture()).getValue();
        assertThat(event.isDataChanged()).isTrue();
        assertThat(event.isOwnersChanged()).isTrue();
    }

    // ------------------------------------------------------------------ ephemeral semaphores

    @Test
    void ephemeralSemaphoreLivesFromTheFirstAcquireToTheLastRelease() {
        CoordinationSession first = connect(client, SESSION_TIMEOUT);
        CoordinationSession second = connect(client, SESSION_TIMEOUT);

        SemaphoreLease a = get(first.acquireEphemeralSemaphore(SEMAPHORE, false, bytes("a"), PATIENCE)).getValue();
        SemaphoreLease b = get(second.acquireEphemeralSemaphore(SEMAPHORE, false, bytes("b"), PATIENCE)).getValue();
        SemaphoreDescription described = describe(first);
        assertThat(described.isEphemeral()).isTrue();
        assertThat(described.getLimit()).isEqualTo(-1L); // 2^64-1 as an unsigned value
        assertThat(described.getCount()).isEqualTo(2);
        SemaphoreWatcher watch = watchOwners(second);

        get(a.release());
        assertThat(get(watch.getChangedFuture()).getValue().isOwnersChanged()).isTrue();
        SemaphoreWatcher last = watchOwners(second);
        get(b.release());

        SemaphoreChangedEvent gone = get(last.getChangedFuture()).getValue();
        assertThat(gone.isDataChanged()).isTrue();
        assertThat(gone.isOwnersChanged()).isTrue();
        assertThat(get(first.describeSemaphore(SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY)).getStatus().getCode())
                .isEqualTo(StatusCode.NOT_FOUND);
    }

    @Test
    void exclusiveEphemeralAcquireWaitsForAllOtherOwners() {
        CoordinationSession shared = connect(client, SESSION_TIMEOUT);
        CoordinationSession exclusive = connect(client, SESSION_TIMEOUT);
        SemaphoreLease lease = get(shared.acquireEphemeralSemaphore(SEMAPHORE, false, PATIENCE)).getValue();

        CompletableFuture<Result<SemaphoreLease>> waiting = exclusive.acquireEphemeralSemaphore(SEMAPHORE, true,
                PATIENCE);
        awaitWaiters(shared, 1);
        assertThat(waiting).isNotDone();
        get(lease.release());

        assertThat(get(waiting).isSuccess()).isTrue();
        assertThat(describe(shared).getCount()).isEqualTo(-1L);
    }

    @Test
    void ephemeralAndPersistentModesDoNotMix() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 10);
        assertThat(get(session.acquireEphemeralSemaphore(SEMAPHORE, false, PATIENCE)).getStatus().getCode())
                .isEqualTo(StatusCode.PRECONDITION_FAILED);

        assertThat(get(session.acquireEphemeralSemaphore("ephemeral", false, PATIENCE)).isSuccess()).isTrue();
        assertThat(get(session.acquireSemaphore("ephemeral", 1, PATIENCE)).getStatus().getCode())
                .isEqualTo(StatusCode.PRECONDITION_FAILED);
        assertThat(get(session.createSemaphore("ephemeral", 1)).getCode()).isEqualTo(StatusCode.PRECONDITION_FAILED);
        assertThat(get(session.deleteSemaphore("ephemeral", true)).getCode())
                .isEqualTo(StatusCode.PRECONDITION_FAILED);
    }

    // ------------------------------------------------------------------ acquire / release

    @Test
    void acquireRejectsMissingSemaphoresAndImpossibleCounts() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 2);

        assertThat(get(session.acquireSemaphore("missing", 1, PATIENCE)).getStatus().getCode())
                .isEqualTo(StatusCode.NOT_FOUND);
        assertThat(get(session.acquireSemaphore(SEMAPHORE, 3, PATIENCE)).getStatus().getCode())
                .isEqualTo(StatusCode.BAD_REQUEST);
        assertThat(get(session.acquireSemaphore(SEMAPHORE, 0, PATIENCE)).getStatus().getCode())
                .isEqualTo(StatusCode.BAD_REQUEST);
        assertThat(get(session.acquireSemaphore(SEMAPHORE, 1, Duration.ofDays(2))).getStatus().getCode())
                .isEqualTo(StatusCode.BAD_REQUEST);
    }

    @Test
    void zeroTimeoutTriesOnceAndFailsAtOnceWhenTaken() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession other = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        assertThat(get(other.acquireSemaphore(SEMAPHORE, 1, Duration.ZERO)).isSuccess()).isTrue();

        Result<SemaphoreLease> attempt = get(owner.acquireSemaphore(SEMAPHORE, 1, Duration.ZERO));

        assertThat(attempt.getStatus().getCode()).isEqualTo(StatusCode.TIMEOUT);
        assertThat(describe(owner).getWaitersList()).isEmpty();
    }

    @Test
    void waiterGivesUpAfterItsTimeout() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession waiter = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).isSuccess()).isTrue();

        Result<SemaphoreLease> attempt = get(waiter.acquireSemaphore(SEMAPHORE, 1, Duration.ofMillis(300)));

        assertThat(attempt.getStatus().getCode()).isEqualTo(StatusCode.TIMEOUT);
        assertThat(describe(owner).getWaitersList()).isEmpty();
    }

    @Test
    void waitersAreGrantedInArrivalOrder() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession first = connect(client, SESSION_TIMEOUT);
        CoordinationSession second = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        SemaphoreLease lease = get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();
        CompletableFuture<Result<SemaphoreLease>> firstWaiting = first.acquireSemaphore(SEMAPHORE, 1, PATIENCE);
        awaitWaiters(owner, 1);
        CompletableFuture<Result<SemaphoreLease>> secondWaiting = second.acquireSemaphore(SEMAPHORE, 1, PATIENCE);
        awaitWaiters(owner, 2);

        get(lease.release());

        assertThat(get(firstWaiting).isSuccess()).isTrue();
        assertThat(secondWaiting).isNotDone();
        SemaphoreDescription described = describe(owner);
        assertThat(described.getOwnersList()).singleElement().extracting(SemaphoreDescription.Session::getId)
                .isEqualTo(first.getId());
        assertThat(described.getWaitersList()).singleElement().extracting(SemaphoreDescription.Session::getId)
                .isEqualTo(second.getId());
        assertThat(described.getWaitersList().get(0).getOrderId())
                .isGreaterThan(described.getOwnersList().get(0).getOrderId());
    }

    @Test
    void headOfTheQueueBlocksSmallerRequestsBehindIt() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession big = connect(client, SESSION_TIMEOUT);
        CoordinationSession small = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 2);
        SemaphoreLease lease = get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();
        CompletableFuture<Result<SemaphoreLease>> bigWaiting = big.acquireSemaphore(SEMAPHORE, 2, PATIENCE);
        awaitWaiters(owner, 1);

        CompletableFuture<Result<SemaphoreLease>> smallWaiting = small.acquireSemaphore(SEMAPHORE, 1, PATIENCE);
        awaitWaiters(owner, 2);
        assertThat(smallWaiting).isNotDone(); // one token is free, but the head wants two

        get(lease.release());
        assertThat(get(bigWaiting).isSuccess()).isTrue();
        assertThat(smallWaiting).isNotDone();
    }

    @Test
    void reacquiringWithTheSameCountReplacesTheOwnerDataAndNotifiesOwnerWatchers() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 10);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("v1"), PATIENCE)).isSuccess()).isTrue();
        SemaphoreWatcher watch = watchOwners(watcher);

        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("v2"), PATIENCE)).isSuccess()).isTrue();

        SemaphoreChangedEvent event = get(watch.getChangedFuture()).getValue();
        assertThat(event.isOwnersChanged()).isTrue();
        assertThat(event.isDataChanged()).isFalse();
        SemaphoreDescription described = describe(watcher);
        assertThat(described.getOwnersList()).singleElement().satisfies(o -> {
            assertThat(o.getData()).isEqualTo(bytes("v2"));
            assertThat(o.getCount()).isEqualTo(1);
        });
    }

    @Test
    void shrinkingAnOwnedCountAdmitsWaiters() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession waiter = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 3);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 3, PATIENCE)).isSuccess()).isTrue();
        CompletableFuture<Result<SemaphoreLease>> waiting = waiter.acquireSemaphore(SEMAPHORE, 2, PATIENCE);
        awaitWaiters(owner, 1);

        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 4, PATIENCE)).getStatus().getCode())
                .isEqualTo(StatusCode.BAD_REQUEST);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).isSuccess()).isTrue();

        assertThat(get(waiting).isSuccess()).isTrue();
        assertThat(describe(owner).getCount()).isEqualTo(3);
    }

    @Test
    void aNewerAcquireByAWaiterSupersedesTheOlderOne() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession waiter = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        SemaphoreLease lease = get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();
        CompletableFuture<Result<SemaphoreLease>> older = waiter.acquireSemaphore(SEMAPHORE, 1, bytes("old"),
                PATIENCE);
        awaitWaiters(owner, 1);

        CompletableFuture<Result<SemaphoreLease>> newer = waiter.acquireSemaphore(SEMAPHORE, 1, bytes("new"),
                PATIENCE);

        assertThat(get(older).getStatus().getCode()).isEqualTo(StatusCode.ABORTED);
        assertThat(describe(owner).getWaitersList()).singleElement()
                .satisfies(w -> assertThat(w.getData()).isEqualTo(bytes("new")));
        get(lease.release());
        assertThat(get(newer).isSuccess()).isTrue();
    }

    @Test
    void zeroTimeoutAcquireByAWaiterAbortsItsOlderRequestAndGivesUp() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession waiter = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).isSuccess()).isTrue();
        CompletableFuture<Result<SemaphoreLease>> waiting = waiter.acquireSemaphore(SEMAPHORE, 1, PATIENCE);
        awaitWaiters(owner, 1);

        // A waiter's newer "try once" request supersedes the pending one and, as it cannot be granted now,
        // gives up at once and leaves the queue.
        Result<SemaphoreLease> folded = get(waiter.acquireSemaphore(SEMAPHORE, 1, Duration.ZERO));

        assertThat(get(waiting).getStatus().getCode()).isEqualTo(StatusCode.ABORTED);
        assertThat(folded.getStatus().getCode()).isEqualTo(StatusCode.TIMEOUT);
        assertThat(describe(owner).getWaitersList()).isEmpty();
    }

    // ------------------------------------------------------------------ describe / watch

    @Test
    void describeReportsOwnersWaitersAndAcquiredTokens() {
        CoordinationSession a = connect(client, SESSION_TIMEOUT);
        CoordinationSession b = connect(client, SESSION_TIMEOUT);
        createSemaphore(a, 5);
        assertThat(get(a.acquireSemaphore(SEMAPHORE, 2, bytes("a"), PATIENCE)).isSuccess()).isTrue();
        assertThat(get(b.acquireSemaphore(SEMAPHORE, 2, bytes("b"), PATIENCE)).isSuccess()).isTrue();
        CompletableFuture<Result<SemaphoreLease>> waiting = connect(client, SESSION_TIMEOUT)
                .acquireSemaphore(SEMAPHORE, 3, bytes("c"), Duration.ofMinutes(5));
        awaitWaiters(a, 1);

        SemaphoreDescription all = get(a.describeSemaphore(SEMAPHORE,
                DescribeSemaphoreMode.WITH_OWNERS_AND_WAITERS)).getValue();
        assertThat(all.getCount()).isEqualTo(4);
        assertThat(all.getLimit()).isEqualTo(5);
        assertThat(all.getOwnersList()).extracting(SemaphoreDescription.Session::getId)
                .containsExactlyInAnyOrder(a.getId(), b.getId());
        assertThat(all.getOwnersList()).extracting(o -> new String(o.getData(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("a", "b");
        assertThat(all.getWaitersList()).singleElement().satisfies(w -> {
            assertThat(w.getCount()).isEqualTo(3);
            assertThat(w.getTimeoutMillis()).isEqualTo(Duration.ofMinutes(5).toMillis());
        });

        SemaphoreDescription dataOnly = get(a.describeSemaphore(SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY))
                .getValue();
        assertThat(dataOnly.getOwnersList()).isEmpty();
        assertThat(dataOnly.getWaitersList()).isEmpty();
        assertThat(waiting).isNotDone();
    }

    @Test
    void watchingAMissingSemaphoreIsNotFound() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);

        assertThat(get(session.watchSemaphore("missing", DescribeSemaphoreMode.WITH_OWNERS,
                WatchSemaphoreMode.WATCH_OWNERS)).getStatus().getCode()).isEqualTo(StatusCode.NOT_FOUND);
    }

    @Test
    void dataWatchFiresOnceOnAnUpdate() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 1);
        SemaphoreWatcher watch = get(watcher.watchSemaphore(SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY,
                WatchSemaphoreMode.WATCH_DATA)).getValue();

        // Owner changes do not trigger a data-only watch.
        SemaphoreLease lease = get(session.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();
        get(lease.release());
        assertThat(get(session.updateSemaphore(SEMAPHORE, bytes("changed"))).isSuccess()).isTrue();

        SemaphoreChangedEvent event = get(watch.getChangedFuture()).getValue();
        assertThat(event.isDataChanged()).isTrue();
        assertThat(event.isOwnersChanged()).isFalse();
    }

    @Test
    void ownersWatchFiresOnAcquireAndOnRelease() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 1);
        SemaphoreWatcher onAcquire = watchOwners(watcher);

        SemaphoreLease lease = get(session.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();
        assertThat(get(onAcquire.getChangedFuture()).getValue().isOwnersChanged()).isTrue();

        SemaphoreWatcher onRelease = watchOwners(watcher);
        assertThat(onRelease.getDescription().getOwnersList()).hasSize(1);
        get(lease.release());
        assertThat(get(onRelease.getChangedFuture()).getValue().isOwnersChanged()).isTrue();
    }

    @Test
    void aNewerWatchAnswersTheOlderOneWithNoChanges() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 1);
        SemaphoreWatcher older = watchOwners(watcher);

        SemaphoreWatcher newer = get(watcher.watchSemaphore(SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY,
                WatchSemaphoreMode.WATCH_DATA)).getValue();

        SemaphoreChangedEvent replaced = get(older.getChangedFuture()).getValue();
        assertThat(replaced.isDataChanged()).isFalse();
        assertThat(replaced.isOwnersChanged()).isFalse();
        assertThat(get(session.updateSemaphore(SEMAPHORE, bytes("x"))).isSuccess()).isTrue();
        assertThat(get(newer.getChangedFuture()).getValue().isDataChanged()).isTrue();
    }

    // ------------------------------------------------------------------ helpers

    protected Client newClient() {
        StreamBreaker breaker = new StreamBreaker();
        GrpcTransport transport = GrpcTransport.forConnectionString(connectionString())
                .withChannelInitializer(builder -> builder.intercept(breaker))
                .build();
        closeables.add(transport);
        return new Client(transport, CoordinationClient.newClient(transport), breaker);
    }

    protected CoordinationSession connect(Client owner, Duration timeout) {
        CoordinationSession session = owner.coordination().createSession(node,
                CoordinationSessionSettings.newBuilder().withConnectTimeout(timeout).build());
        closeables.add(() -> session.stop().get(5, TimeUnit.SECONDS));
        Status status = get(session.connect());
        assertThat(status.isSuccess()).as("connect: %s", status).isTrue();
        return session;
    }

    private void createSemaphore(CoordinationSession session, long limit) {
        Status status = get(session.createSemaphore(SEMAPHORE, limit));
        assertThat(status.isSuccess()).as("create: %s", status).isTrue();
    }

    private static SemaphoreDescription describe(CoordinationSession session) {
        Result<SemaphoreDescription> result = get(session.describeSemaphore(SEMAPHORE,
                DescribeSemaphoreMode.WITH_OWNERS_AND_WAITERS));
        assertThat(result.isSuccess()).as("describe: %s", result.getStatus()).isTrue();
        return result.getValue();
    }

    private static SemaphoreWatcher watchOwners(CoordinationSession session) {
        Result<SemaphoreWatcher> result = get(session.watchSemaphore(SEMAPHORE, DescribeSemaphoreMode.WITH_OWNERS,
                WatchSemaphoreMode.WATCH_OWNERS));
        assertThat(result.isSuccess()).as("watch: %s", result.getStatus()).isTrue();
        return result.getValue();
    }

    private static void awaitWaiters(CoordinationSession session, int waiters) {
        await().atMost(PATIENCE).until(() -> describe(session).getWaitersList().size() == waiters);
    }

    private static CoordinationNodeSettings nodeSettings(NodeConfig config) {
        return CoordinationNodeSettings.newBuilder().withNodeConfig(config).build();
    }

    protected static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    protected static <T> T get(CompletableFuture<T> future) {
        try {
            return future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } catch (Exception e) {
            throw new AssertionError("no answer within " + PATIENCE, e);
        }
    }
}
