package dev.egress.ydb.coordination.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.SemaphoreLease;
import tech.ydb.coordination.description.SemaphoreChangedEvent;
import tech.ydb.coordination.description.SemaphoreDescription;
import tech.ydb.coordination.description.SemaphoreWatcher;
import tech.ydb.core.Result;
import tech.ydb.core.StatusCode;

/**
 * The coordination-node rules our registry relies on, written only against the official SDK's public API, so
 * that the same tests run against the embedded node and against real YDB. Each test works in its own node.
 */
/** Acquire and release: validation, try-once, waiter timeouts, FIFO grants, re-acquire, superseded waiters. */
public abstract class AcquireConformanceSuite extends ConformanceFixture {

    // ------------------------------------------------------------------ acquire / release

    @Test
    void acquireRejectsMissingSemaphoresAndImpossibleCounts() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 2);

        assertThat(get(session.acquireSemaphore("missing", 1, PATIENCE))
                        .getStatus()
                        .getCode())
                .isEqualTo(StatusCode.NOT_FOUND);
        assertThat(get(session.acquireSemaphore(SEMAPHORE, 3, PATIENCE))
                        .getStatus()
                        .getCode())
                .isEqualTo(StatusCode.BAD_REQUEST);
        assertThat(get(session.acquireSemaphore(SEMAPHORE, 0, PATIENCE))
                        .getStatus()
                        .getCode())
                .isEqualTo(StatusCode.BAD_REQUEST);
        assertThat(get(session.acquireSemaphore(SEMAPHORE, 1, Duration.ofDays(2)))
                        .getStatus()
                        .getCode())
                .isEqualTo(StatusCode.BAD_REQUEST);
    }

    @Test
    void zeroTimeoutTriesOnceAndFailsAtOnceWhenTaken() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession other = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        assertThat(get(other.acquireSemaphore(SEMAPHORE, 1, Duration.ZERO)).isSuccess())
                .isTrue();

        Result<SemaphoreLease> attempt = get(owner.acquireSemaphore(SEMAPHORE, 1, Duration.ZERO));

        assertThat(attempt.getStatus().getCode()).isEqualTo(StatusCode.TIMEOUT);
        assertThat(describe(owner).getWaitersList()).isEmpty();
    }

    @Test
    void waiterGivesUpAfterItsTimeout() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession waiter = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).isSuccess())
                .isTrue();

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
        SemaphoreLease lease =
                get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();
        CompletableFuture<Result<SemaphoreLease>> firstWaiting = first.acquireSemaphore(SEMAPHORE, 1, PATIENCE);
        awaitWaiters(owner, 1);
        CompletableFuture<Result<SemaphoreLease>> secondWaiting = second.acquireSemaphore(SEMAPHORE, 1, PATIENCE);
        awaitWaiters(owner, 2);

        get(lease.release());

        assertThat(get(firstWaiting).isSuccess()).isTrue();
        assertThat(secondWaiting).isNotDone();
        SemaphoreDescription described = describe(owner);
        assertThat(described.getOwnersList())
                .singleElement()
                .extracting(SemaphoreDescription.Session::getId)
                .isEqualTo(first.getId());
        assertThat(described.getWaitersList())
                .singleElement()
                .extracting(SemaphoreDescription.Session::getId)
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
        SemaphoreLease lease =
                get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();
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
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("v1"), PATIENCE))
                        .isSuccess())
                .isTrue();
        SemaphoreWatcher watch = watchOwners(watcher);

        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, bytes("v2"), PATIENCE))
                        .isSuccess())
                .isTrue();

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
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 3, PATIENCE)).isSuccess())
                .isTrue();
        CompletableFuture<Result<SemaphoreLease>> waiting = waiter.acquireSemaphore(SEMAPHORE, 2, PATIENCE);
        awaitWaiters(owner, 1);

        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 4, PATIENCE))
                        .getStatus()
                        .getCode())
                .isEqualTo(StatusCode.BAD_REQUEST);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).isSuccess())
                .isTrue();

        assertThat(get(waiting).isSuccess()).isTrue();
        assertThat(describe(owner).getCount()).isEqualTo(3);
    }

    @Test
    void aNewerAcquireByAWaiterSupersedesTheOlderOne() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession waiter = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        SemaphoreLease lease =
                get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();
        CompletableFuture<Result<SemaphoreLease>> older = waiter.acquireSemaphore(SEMAPHORE, 1, bytes("old"), PATIENCE);
        awaitWaiters(owner, 1);

        CompletableFuture<Result<SemaphoreLease>> newer = waiter.acquireSemaphore(SEMAPHORE, 1, bytes("new"), PATIENCE);

        assertThat(get(older).getStatus().getCode()).isEqualTo(StatusCode.ABORTED);
        assertThat(describe(owner).getWaitersList())
                .singleElement()
                .satisfies(w -> assertThat(w.getData()).isEqualTo(bytes("new")));
        get(lease.release());
        assertThat(get(newer).isSuccess()).isTrue();
    }

    @Test
    void zeroTimeoutAcquireByAWaiterAbortsItsOlderRequestAndGivesUp() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession waiter = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).isSuccess())
                .isTrue();
        CompletableFuture<Result<SemaphoreLease>> waiting = waiter.acquireSemaphore(SEMAPHORE, 1, PATIENCE);
        awaitWaiters(owner, 1);

        // A waiter's newer "try once" request supersedes the pending one and, as it cannot be granted now,
        // gives up at once and leaves the queue.
        Result<SemaphoreLease> folded = get(waiter.acquireSemaphore(SEMAPHORE, 1, Duration.ZERO));

        assertThat(get(waiting).getStatus().getCode()).isEqualTo(StatusCode.ABORTED);
        assertThat(folded.getStatus().getCode()).isEqualTo(StatusCode.TIMEOUT);
        assertThat(describe(owner).getWaitersList()).isEmpty();
    }
}
