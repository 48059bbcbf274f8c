package dev.egress.app.delivery.buckets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.description.SemaphoreDescription;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.core.Result;
import tech.ydb.core.grpc.GrpcTransport;

/**
 * Bucket ownership against the real embedded node through the real SDK: Apps split the buckets, make room for one
 * that joins, take a dead one's buckets when its session times out, and recover after a node restart. "Never owned
 * twice" is checked on the node itself, by describing every bucket's semaphore as an operator would.
 */
class BucketOwnershipIT {

    private static final int COUNT = 64;
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration CHECK = Duration.ofMillis(200);

    private EmbeddedCoordinationNode node;
    private int port;
    private final List<BucketOwnership> owners = new ArrayList<>();

    @BeforeEach
    void startNode() {
        node = EmbeddedCoordinationNode.start(0);
        port = node.port();
    }

    @AfterEach
    void stop() {
        owners.forEach(BucketOwnership::close);
        if (node != null) {
            node.close();
        }
    }

    private BucketOwnership app(String id) {
        BucketOwnership owner = BucketOwnership.start(new BucketSettings(
                node.connectionString(), null, "egress-delivery", COUNT, id, SESSION_TIMEOUT, CHECK));
        owners.add(owner);
        return owner;
    }

    @Test
    void twoAppsSplitTheBucketsAndMakeRoomForAThird() {
        BucketOwnership a = app("app-a");
        BucketOwnership b = app("app-b");

        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
            assertThat(a.current()).hasSize(32);
            assertThat(b.current()).hasSize(32);
        });
        assertDisjointAndComplete(a, b);
        assertThat(holdersOnTheNode())
                .hasSize(COUNT)
                .allSatisfy((bucket, holders) -> assertThat(holders).isEqualTo(1));

        BucketOwnership c = app("app-c");
        List<Map<Integer, Integer>> seen = new ArrayList<>();
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
            seen.add(holdersOnTheNode());
            assertThat(a.current().length + b.current().length + c.current().length)
                    .isEqualTo(COUNT);
            assertThat(new int[] {a.current().length, b.current().length, c.current().length})
                    .containsExactlyInAnyOrder(22, 21, 21);
        });
        assertDisjointAndComplete(a, b, c);
        // Every look at the node during the move: no bucket ever had two owners.
        assertThat(seen)
                .allSatisfy(view ->
                        assertThat(view.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(1)));
    }

    @Test
    void aKilledAppsBucketsMoveWithinTheSessionTimeout() {
        BucketOwnership a = app("app-a");
        BucketOwnership b = app("app-b");
        BucketOwnership c = app("app-c");
        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> a.current().length + b.current().length + c.current().length == COUNT);

        long killed = System.nanoTime();
        c.abandon();

        await().atMost(SESSION_TIMEOUT.plus(CHECK).plusSeconds(5).toMillis(), TimeUnit.MILLISECONDS)
                .untilAsserted(() -> {
                    assertThat(a.current()).hasSize(32);
                    assertThat(b.current()).hasSize(32);
                });
        Duration moved = Duration.ofNanos(System.nanoTime() - killed);
        assertDisjointAndComplete(a, b);
        assertThat(moved).isGreaterThanOrEqualTo(SESSION_TIMEOUT.minusMillis(500)); // held until it timed out
    }

    @Test
    void ownershipRecoversAfterANodeRestart() {
        BucketOwnership a = app("app-a");
        BucketOwnership b = app("app-b");
        await().atMost(10, TimeUnit.SECONDS).until(() -> a.current().length == 32 && b.current().length == 32);

        node.close();
        await().atMost(10, TimeUnit.SECONDS).until(() -> a.current().length == 0 && b.current().length == 0);
        node = EmbeddedCoordinationNode.start(port);

        await().atMost(30, TimeUnit.SECONDS).untilAsserted(() -> {
            assertThat(a.current()).hasSize(32);
            assertThat(b.current()).hasSize(32);
        });
        assertDisjointAndComplete(a, b);
        assertThat(holdersOnTheNode().values()).allSatisfy(n -> assertThat(n).isEqualTo(1));
    }

    private static void assertDisjointAndComplete(BucketOwnership... apps) {
        int[] all = Arrays.stream(apps)
                .flatMapToInt(app -> Arrays.stream(app.current()))
                .sorted()
                .toArray();
        assertThat(all).containsExactly(IntStream.range(0, COUNT).toArray());
        for (BucketOwnership app : apps) {
            assertThat(app.current()).isSorted();
        }
    }

    /** How many sessions own each bucket's semaphore, as the node says. */
    private Map<Integer, Integer> holdersOnTheNode() {
        try (GrpcTransport transport =
                GrpcTransport.forConnectionString(node.connectionString()).build()) {
            CoordinationClient client = CoordinationClient.newClient(transport);
            try (CoordinationSession session = client.createSession("egress-delivery")) {
                session.connect().get(5, TimeUnit.SECONDS);
                Map<Integer, Integer> holders = new HashMap<>();
                for (int bucket = 0; bucket < COUNT; bucket++) {
                    Result<SemaphoreDescription> d = session.describeSemaphore(
                                    BucketOwnership.name(bucket), DescribeSemaphoreMode.WITH_OWNERS)
                            .get(5, TimeUnit.SECONDS);
                    holders.put(bucket, d.getValue().getOwnersList().size());
                }
                return holders;
            }
        } catch (Exception e) {
            throw new AssertionError("describe the buckets: " + e, e);
        }
    }
}
