package dev.egress.ydb.coordination.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.SemaphoreLease;
import tech.ydb.coordination.description.SemaphoreChangedEvent;
import tech.ydb.coordination.description.SemaphoreDescription;
import tech.ydb.coordination.description.SemaphoreWatcher;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.coordination.settings.WatchSemaphoreMode;
import tech.ydb.core.Result;
import tech.ydb.core.StatusCode;

/**
 * The coordination-node rules our registry relies on, written only against the official SDK's public API, so
 * that the same tests run against the embedded node and against real YDB. Each test works in its own node.
 */
/** Semaphore create/update/delete, the ephemeral lifecycle, describe and watches. */
public abstract class SemaphoreConformanceSuite extends ConformanceFixture {

    // ------------------------------------------------------------------ create / update / delete

    @Test
    void createSemaphoreRejectsZeroLimitAndDuplicates() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);

        assertThat(get(session.createSemaphore(SEMAPHORE, 0)).getCode()).isEqualTo(StatusCode.BAD_REQUEST);
        assertThat(get(session.createSemaphore(SEMAPHORE, 5, bytes("d"))).isSuccess())
                .isTrue();
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

        assertThat(get(session.updateSemaphore(SEMAPHORE, bytes("new"))).isSuccess())
                .isTrue();
        assertThat(describe(session).getData()).isEqualTo(bytes("new"));
        assertThat(get(session.updateSemaphore("missing", bytes("x"))).getCode())
                .isEqualTo(StatusCode.NOT_FOUND);
    }

    @Test
    void deleteSemaphoreRefusesMissingAndBusyOnes() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 1);
        SemaphoreLease lease =
                get(session.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();

        assertThat(get(session.deleteSemaphore("missing")).getCode()).isEqualTo(StatusCode.NOT_FOUND);
        assertThat(get(session.deleteSemaphore(SEMAPHORE, false)).getCode()).isEqualTo(StatusCode.PRECONDITION_FAILED);

        get(lease.release());
        assertThat(get(session.deleteSemaphore(SEMAPHORE, false)).isSuccess()).isTrue();
        assertThat(get(session.describeSemaphore(SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY))
                        .getStatus()
                        .getCode())
                .isEqualTo(StatusCode.NOT_FOUND);
    }

    @Test
    void forcedDeleteAbortsWaitersAndFiresEveryWatch() {
        CoordinationSession owner = connect(client, SESSION_TIMEOUT);
        CoordinationSession waiter = connect(client, SESSION_TIMEOUT);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(owner, 1);
        assertThat(get(owner.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).isSuccess())
                .isTrue();
        CompletableFuture<Result<SemaphoreLease>> waiting = waiter.acquireSemaphore(SEMAPHORE, 1, PATIENCE);
        awaitWaiters(watcher, 1);
        SemaphoreWatcher watch = get(watcher.watchSemaphore(
                        SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY, WatchSemaphoreMode.WATCH_DATA))
                .getValue();

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

        SemaphoreLease a = get(first.acquireEphemeralSemaphore(SEMAPHORE, false, bytes("a"), PATIENCE))
                .getValue();
        SemaphoreLease b = get(second.acquireEphemeralSemaphore(SEMAPHORE, false, bytes("b"), PATIENCE))
                .getValue();
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
        assertThat(get(first.describeSemaphore(SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY))
                        .getStatus()
                        .getCode())
                .isEqualTo(StatusCode.NOT_FOUND);
    }

    @Test
    void exclusiveEphemeralAcquireWaitsForAllOtherOwners() {
        CoordinationSession shared = connect(client, SESSION_TIMEOUT);
        CoordinationSession exclusive = connect(client, SESSION_TIMEOUT);
        SemaphoreLease lease = get(shared.acquireEphemeralSemaphore(SEMAPHORE, false, PATIENCE))
                .getValue();

        CompletableFuture<Result<SemaphoreLease>> waiting =
                exclusive.acquireEphemeralSemaphore(SEMAPHORE, true, PATIENCE);
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
        assertThat(get(session.acquireEphemeralSemaphore(SEMAPHORE, false, PATIENCE))
                        .getStatus()
                        .getCode())
                .isEqualTo(StatusCode.PRECONDITION_FAILED);

        assertThat(get(session.acquireEphemeralSemaphore("ephemeral", false, PATIENCE))
                        .isSuccess())
                .isTrue();
        assertThat(get(session.acquireSemaphore("ephemeral", 1, PATIENCE))
                        .getStatus()
                        .getCode())
                .isEqualTo(StatusCode.PRECONDITION_FAILED);
        assertThat(get(session.createSemaphore("ephemeral", 1)).getCode()).isEqualTo(StatusCode.PRECONDITION_FAILED);
        assertThat(get(session.deleteSemaphore("ephemeral", true)).getCode()).isEqualTo(StatusCode.PRECONDITION_FAILED);
    }

    // ------------------------------------------------------------------ describe / watch

    @Test
    void describeReportsOwnersWaitersAndAcquiredTokens() {
        CoordinationSession a = connect(client, SESSION_TIMEOUT);
        CoordinationSession b = connect(client, SESSION_TIMEOUT);
        createSemaphore(a, 5);
        assertThat(get(a.acquireSemaphore(SEMAPHORE, 2, bytes("a"), PATIENCE)).isSuccess())
                .isTrue();
        assertThat(get(b.acquireSemaphore(SEMAPHORE, 2, bytes("b"), PATIENCE)).isSuccess())
                .isTrue();
        CompletableFuture<Result<SemaphoreLease>> waiting =
                connect(client, SESSION_TIMEOUT).acquireSemaphore(SEMAPHORE, 3, bytes("c"), Duration.ofMinutes(5));
        awaitWaiters(a, 1);

        SemaphoreDescription all = get(a.describeSemaphore(SEMAPHORE, DescribeSemaphoreMode.WITH_OWNERS_AND_WAITERS))
                .getValue();
        assertThat(all.getCount()).isEqualTo(4);
        assertThat(all.getLimit()).isEqualTo(5);
        assertThat(all.getOwnersList())
                .extracting(SemaphoreDescription.Session::getId)
                .containsExactlyInAnyOrder(a.getId(), b.getId());
        assertThat(all.getOwnersList())
                .extracting(o -> new String(o.getData(), StandardCharsets.UTF_8))
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

        assertThat(get(session.watchSemaphore(
                                "missing", DescribeSemaphoreMode.WITH_OWNERS, WatchSemaphoreMode.WATCH_OWNERS))
                        .getStatus()
                        .getCode())
                .isEqualTo(StatusCode.NOT_FOUND);
    }

    @Test
    void dataWatchFiresOnceOnAnUpdate() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 1);
        SemaphoreWatcher watch = get(watcher.watchSemaphore(
                        SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY, WatchSemaphoreMode.WATCH_DATA))
                .getValue();

        // Owner changes do not trigger a data-only watch.
        SemaphoreLease lease =
                get(session.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();
        get(lease.release());
        assertThat(get(session.updateSemaphore(SEMAPHORE, bytes("changed"))).isSuccess())
                .isTrue();

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

        SemaphoreLease lease =
                get(session.acquireSemaphore(SEMAPHORE, 1, PATIENCE)).getValue();
        assertThat(get(onAcquire.getChangedFuture()).getValue().isOwnersChanged())
                .isTrue();

        SemaphoreWatcher onRelease = watchOwners(watcher);
        assertThat(onRelease.getDescription().getOwnersList()).hasSize(1);
        get(lease.release());
        assertThat(get(onRelease.getChangedFuture()).getValue().isOwnersChanged())
                .isTrue();
    }

    @Test
    void aNewerWatchAnswersTheOlderOneWithNoChanges() {
        CoordinationSession session = connect(client, SESSION_TIMEOUT);
        CoordinationSession watcher = connect(client, SESSION_TIMEOUT);
        createSemaphore(session, 1);
        SemaphoreWatcher older = watchOwners(watcher);

        SemaphoreWatcher newer = get(watcher.watchSemaphore(
                        SEMAPHORE, DescribeSemaphoreMode.DATA_ONLY, WatchSemaphoreMode.WATCH_DATA))
                .getValue();

        SemaphoreChangedEvent replaced = get(older.getChangedFuture()).getValue();
        assertThat(replaced.isDataChanged()).isFalse();
        assertThat(replaced.isOwnersChanged()).isFalse();
        assertThat(get(session.updateSemaphore(SEMAPHORE, bytes("x"))).isSuccess())
                .isTrue();
        assertThat(get(newer.getChangedFuture()).getValue().isDataChanged()).isTrue();
    }
}
