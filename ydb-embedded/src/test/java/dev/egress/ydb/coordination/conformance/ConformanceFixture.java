package dev.egress.ydb.coordination.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.ydb.coordination.testing.StreamCutter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.description.NodeConfig;
import tech.ydb.coordination.description.SemaphoreDescription;
import tech.ydb.coordination.description.SemaphoreWatcher;
import tech.ydb.coordination.settings.CoordinationNodeSettings;
import tech.ydb.coordination.settings.CoordinationSessionSettings;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.coordination.settings.WatchSemaphoreMode;
import tech.ydb.core.Result;
import tech.ydb.core.Status;
import tech.ydb.core.grpc.GrpcTransport;

/**
 * What every conformance suite shares: a fresh coordination node per test, SDK clients and sessions that are
 * cleaned up afterwards, and small helpers. The suites are written only against the official SDK's public API,
 * so that the same tests run against the embedded node and against real YDB.
 */
@Execution(ExecutionMode.CONCURRENT)
public abstract class ConformanceFixture {

    /** Generous: the machine is shared and slow; nothing here asserts speed. */
    protected static final Duration PATIENCE = Duration.ofSeconds(30);

    protected static final Duration SESSION_TIMEOUT = Duration.ofSeconds(5);
    protected static final String SEMAPHORE = "registry";

    protected final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();
    protected Client client;
    protected String node;

    /** The SDK connection string of the server under test, e.g. {@code grpc://127.0.0.1:2136/local}. */
    protected abstract String connectionString();

    /** One transport with its coordination client and a way to cut its session streams. */
    protected record Client(GrpcTransport transport, CoordinationClient coordination, StreamCutter cutter) {}

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
        verifyServer();
    }

    /** Hook for runs that can inspect the server after each test (the embedded one checks its bookkeeping). */
    protected void verifyServer() {}

    // ------------------------------------------------------------------ helpers

    protected Client newClient() {
        StreamCutter cutter = new StreamCutter();
        GrpcTransport transport = GrpcTransport.forConnectionString(connectionString())
                .withChannelInitializer(builder -> builder.intercept(cutter))
                .build();
        closeables.add(transport);
        return new Client(transport, CoordinationClient.newClient(transport), cutter);
    }

    protected CoordinationSession connect(Client owner, Duration timeout) {
        CoordinationSession session = owner.coordination()
                .createSession(
                        node,
                        CoordinationSessionSettings.newBuilder()
                                .withConnectTimeout(timeout)
                                .build());
        closeables.add(() -> session.stop().get(5, TimeUnit.SECONDS));
        Status status = get(session.connect());
        assertThat(status.isSuccess()).as("connect: %s", status).isTrue();
        return session;
    }

    protected void createSemaphore(CoordinationSession session, long limit) {
        Status status = get(session.createSemaphore(SEMAPHORE, limit));
        assertThat(status.isSuccess()).as("create: %s", status).isTrue();
    }

    protected static SemaphoreDescription describe(CoordinationSession session) {
        Result<SemaphoreDescription> result =
                get(session.describeSemaphore(SEMAPHORE, DescribeSemaphoreMode.WITH_OWNERS_AND_WAITERS));
        assertThat(result.isSuccess()).as("describe: %s", result.getStatus()).isTrue();
        return result.getValue();
    }

    protected static SemaphoreWatcher watchOwners(CoordinationSession session) {
        Result<SemaphoreWatcher> result = get(
                session.watchSemaphore(SEMAPHORE, DescribeSemaphoreMode.WITH_OWNERS, WatchSemaphoreMode.WATCH_OWNERS));
        assertThat(result.isSuccess()).as("watch: %s", result.getStatus()).isTrue();
        return result.getValue();
    }

    protected static void awaitWaiters(CoordinationSession session, int waiters) {
        await().atMost(PATIENCE).until(() -> describe(session).getWaitersList().size() == waiters);
    }

    protected static CoordinationNodeSettings nodeSettings(NodeConfig config) {
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
