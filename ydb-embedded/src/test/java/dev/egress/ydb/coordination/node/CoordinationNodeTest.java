package dev.egress.ydb.coordination.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.SessionRequest;
import tech.ydb.proto.coordination.SessionResponse;

/** The state machine on its own, driven through {@link SessionPeer} stand-ins. */
class CoordinationNodeTest {

    private final CoordinationNode node = new CoordinationNode("/local/test", NodeConfig.defaults());
    private long reqId = 100;

    @AfterEach
    void checkAndClose() {
        assertThat(node.report().orElseThrow().violations()).isEmpty();
        node.close(StatusCode.UNAVAILABLE, "test over");
    }

    @Test
    void grantsWaitersInOrderAndTheHeadBlocksSmallerRequests() {
        RecordingPeer owner = attach(5_000);
        RecordingPeer big = attach(5_000);
        RecordingPeer small = attach(5_000);
        create(owner, "s", 2);
        assertThat(acquire(owner, "s", 1, 60_000).getAcquireSemaphoreResult().getAcquired())
                .isTrue();

        assertThat(acquire(big, "s", 2, 60_000).hasAcquireSemaphorePending()).isTrue();
        assertThat(acquire(small, "s", 1, 60_000).hasAcquireSemaphorePending()).isTrue();

        release(owner, "s");
        assertThat(owner.next().getReleaseSemaphoreResult().getReleased()).isTrue();
        assertThat(big.next().getAcquireSemaphoreResult().getAcquired()).isTrue();
        assertThat(small.isQuiet()).isTrue();
        release(big, "s");
        big.next();
        assertThat(small.next().getAcquireSemaphoreResult().getAcquired()).isTrue();
    }

    @Test
    void shrinkingAnOwnedCountAdmitsTheHeadWaiter() {
        RecordingPeer owner = attach(5_000);
        RecordingPeer waiter = attach(5_000);
        create(owner, "s", 3);
        acquire(owner, "s", 3, 0);
        assertThat(acquire(waiter, "s", 2, 60_000).hasAcquireSemaphorePending()).isTrue();

        assertThat(acquire(owner, "s", 1, 0).getAcquireSemaphoreResult().getAcquired())
                .isTrue();

        assertThat(waiter.next().getAcquireSemaphoreResult().getAcquired()).isTrue();
    }

    @Test
    void watchFlagsAreThoseOfTheEventAndOnlyMatchingWatchersFire() {
        RecordingPeer actor = attach(5_000);
        RecordingPeer dataWatcher = attach(5_000);
        RecordingPeer ownersWatcher = attach(5_000);
        create(actor, "s", 1);
        watch(dataWatcher, "s", true, false);
        watch(ownersWatcher, "s", false, true);

        acquire(actor, "s", 1, 0);
        SessionResponse.DescribeSemaphoreChanged owners = ownersWatcher.next().getDescribeSemaphoreChanged();
        assertThat(owners.getOwnersChanged()).isTrue();
        assertThat(owners.getDataChanged()).isFalse();
        assertThat(dataWatcher.isQuiet()).isTrue();

        update(actor, "s", "new");
        SessionResponse.DescribeSemaphoreChanged data = dataWatcher.next().getDescribeSemaphoreChanged();
        assertThat(data.getDataChanged()).isTrue();
        assertThat(data.getOwnersChanged()).isFalse();
    }

    @Test
    void detachedSessionSurvivesUntilItsTimeoutThenReleasesAndNotifies() {
        RecordingPeer doomed = attach(200);
        RecordingPeer watcher = attach(5_000);
        create(watcher, "s", 1);
        acquire(doomed, "s", 1, 0);
        watch(watcher, "s", false, true);

        node.detach(doomed);

        SessionResponse changed = watcher.next();
        assertThat(changed.getDescribeSemaphoreChanged().getOwnersChanged()).isTrue();
        assertThat(node.report().orElseThrow().sessions()).isEqualTo(1);
    }

    @Test
    void reattachKeepsOwnershipAndDropsWatches() {
        RecordingPeer first = new RecordingPeer();
        node.attach(first, start(0, 5_000, "k", 0));
        long id = first.next().getSessionStarted().getSessionId();
        create(first, "s", 1);
        acquire(first, "s", 1, 0);
        watch(first, "s", true, true);
        node.detach(first);

        RecordingPeer second = new RecordingPeer();
        node.attach(second, start(id, 5_000, "k", 0));
        assertThat(second.next().getSessionStarted().getSessionId()).isEqualTo(id);
        update(second, "s", "changed"); // no watch left to fire

        assertThat(second.isQuiet()).isTrue();
        assertThat(node.report().orElseThrow().owners()).isEqualTo(1);
        assertThat(node.report().orElseThrow().watches()).isZero();
    }

    @Test
    void ephemeralSemaphoreDisappearsWithItsLastOwner() {
        RecordingPeer a = attach(5_000);
        RecordingPeer watcher = attach(5_000);
        SessionResponse acquired = send(
                a,
                SessionRequest.newBuilder()
                        .setAcquireSemaphore(SessionRequest.AcquireSemaphore.newBuilder()
                                .setReqId(++reqId)
                                .setName("e")
                                .setCount(-1L)
                                .setEphemeral(true))
                        .build());
        assertThat(acquired.getAcquireSemaphoreResult().getAcquired()).isTrue();
        watch(watcher, "e", false, true);

        release(a, "e");
        a.next();

        SessionResponse.DescribeSemaphoreChanged gone = watcher.next().getDescribeSemaphoreChanged();
        assertThat(gone.getDataChanged()).isTrue();
        assertThat(gone.getOwnersChanged()).isTrue();
        assertThat(node.report().orElseThrow().semaphores()).isZero();
    }

    @Test
    void tokenArithmeticIsUnsigned() {
        RecordingPeer a = attach(5_000);
        RecordingPeer b = attach(5_000);
        create(a, "s", -1L); // 2^64-1

        assertThat(acquire(a, "s", -2L, 0).getAcquireSemaphoreResult().getAcquired())
                .isTrue(); // 2^64-2
        assertThat(acquire(b, "s", 1, 0).getAcquireSemaphoreResult().getAcquired())
                .isTrue();
        assertThat(acquire(attach(5_000), "s", 1, 0).getAcquireSemaphoreResult().getAcquired())
                .isFalse();
        assertThat(node.report().orElseThrow().violations()).isEmpty();
    }

    @Test
    void waiterTimeoutAnswersNotAcquiredAndLeavesTheQueue() {
        RecordingPeer owner = attach(5_000);
        RecordingPeer waiter = attach(5_000);
        create(owner, "s", 1);
        acquire(owner, "s", 1, 0);

        assertThat(acquire(waiter, "s", 1, 50).hasAcquireSemaphorePending()).isTrue();

        SessionResponse.AcquireSemaphoreResult result = waiter.next().getAcquireSemaphoreResult();
        assertThat(result.getStatus()).isEqualTo(StatusCode.SUCCESS);
        assertThat(result.getAcquired()).isFalse();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> node.report().orElseThrow().waiters() == 0);
    }

    // ------------------------------------------------------------------ helpers

    private RecordingPeer attach(long timeoutMillis) {
        RecordingPeer peer = new RecordingPeer();
        node.attach(peer, start(0, timeoutMillis, "", 0));
        assertThat(peer.next().hasSessionStarted()).isTrue();
        return peer;
    }

    private static SessionRequest.SessionStart start(long id, long timeoutMillis, String key, long seqNo) {
        return SessionRequest.SessionStart.newBuilder()
                .setPath("/local/test")
                .setSessionId(id)
                .setTimeoutMillis(timeoutMillis)
                .setProtectionKey(ByteString.copyFromUtf8(key))
                .setSeqNo(seqNo)
                .build();
    }

    private SessionResponse send(RecordingPeer peer, SessionRequest request) {
        node.handle(peer, request);
        return peer.next();
    }

    private void create(RecordingPeer peer, String name, long limit) {
        SessionResponse response = send(
                peer,
                SessionRequest.newBuilder()
                        .setCreateSemaphore(SessionRequest.CreateSemaphore.newBuilder()
                                .setReqId(++reqId)
                                .setName(name)
                                .setLimit(limit))
                        .build());
        assertThat(response.getCreateSemaphoreResult().getStatus()).isEqualTo(StatusCode.SUCCESS);
    }

    private SessionResponse acquire(RecordingPeer peer, String name, long count, long timeoutMillis) {
        return send(
                peer,
                SessionRequest.newBuilder()
                        .setAcquireSemaphore(SessionRequest.AcquireSemaphore.newBuilder()
                                .setReqId(++reqId)
                                .setName(name)
                                .setCount(count)
                                .setTimeoutMillis(timeoutMillis))
                        .build());
    }

    private void release(RecordingPeer peer, String name) {
        node.handle(
                peer,
                SessionRequest.newBuilder()
                        .setReleaseSemaphore(SessionRequest.ReleaseSemaphore.newBuilder()
                                .setReqId(++reqId)
                                .setName(name))
                        .build());
    }

    private void update(RecordingPeer peer, String name, String data) {
        SessionResponse response = send(
                peer,
                SessionRequest.newBuilder()
                        .setUpdateSemaphore(SessionRequest.UpdateSemaphore.newBuilder()
                                .setReqId(++reqId)
                                .setName(name)
                                .setData(ByteString.copyFromUtf8(data)))
                        .build());
        assertThat(response.getUpdateSemaphoreResult().getStatus()).isEqualTo(StatusCode.SUCCESS);
    }

    private void watch(RecordingPeer peer, String name, boolean data, boolean owners) {
        SessionResponse response = send(
                peer,
                SessionRequest.newBuilder()
                        .setDescribeSemaphore(SessionRequest.DescribeSemaphore.newBuilder()
                                .setReqId(++reqId)
                                .setName(name)
                                .setWatchData(data)
                                .setWatchOwners(owners))
                        .build());
        assertThat(response.getDescribeSemaphoreResult().getWatchAdded()).isTrue();
    }
}
