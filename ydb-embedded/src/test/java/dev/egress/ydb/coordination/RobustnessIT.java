package dev.egress.ydb.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.egress.ydb.coordination.node.NodeStateReport;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.settings.CoordinationSessionSettings;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.core.Result;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.DropNodeRequest;
import tech.ydb.proto.coordination.SessionRequest;
import tech.ydb.proto.coordination.v1.CoordinationServiceGrpc;

/**
 * Misbehaving and numerous clients: afterwards the node's bookkeeping must be exact (counts equal the sum of
 * owners, no leaked sessions, streams or threads).
 */
class RobustnessIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @AutoClose
    private static WireNode node;

    private static EmbeddedCoordinationNode server;
    private static ManagedChannel channel;
    private String path;

    @BeforeAll
    static void startServer() {
        node = WireNode.start();
        server = node.server();
        channel = node.channel();
    }

    @BeforeEach
    void createNode() {
        path = node.createNode("robust-");
    }

    @Test
    void clientThatNeverStartsASessionLeavesNothingBehind() {
        RawSession silent = new RawSession(channel, true);
        RawSession halfClosing = new RawSession(channel, true);
        await().atMost(PATIENCE).until(() -> server.stateReport().openStreams() >= 2);

        halfClosing.halfClose();
        // As YDB: a half-close before session_start ends the call CANCELLED (the SDK's CLIENT_CANCELLED).
        assertThat(halfClosing.awaitClosed().getCode()).isEqualTo(Status.Code.CANCELLED);
        silent.cancel();

        awaitQuiet(0);
    }

    @Test
    void garbageBytesEndOnlyTheirOwnCall() {
        MethodDescriptor<byte[], byte[]> bytesSession = MethodDescriptor.<byte[], byte[]>newBuilder()
                .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
                .setFullMethodName(CoordinationServiceGrpc.getSessionMethod().getFullMethodName())
                .setRequestMarshaller(new BytesMarshaller())
                .setResponseMarshaller(new BytesMarshaller())
                .build();
        CompletableFuture<Status> ended = new CompletableFuture<>();
        StreamObserver<byte[]> requests = ClientCalls.asyncBidiStreamingCall(
                channel.newCall(bytesSession, CallOptions.DEFAULT), new StreamObserver<>() {
                    @Override
                    public void onNext(byte[] value) {}

                    @Override
                    public void onError(Throwable t) {
                        ended.complete(Status.fromThrowable(t));
                    }

                    @Override
                    public void onCompleted() {
                        ended.complete(Status.OK);
                    }
                });
        // field 3 (session_start), length-delimited, with a length far beyond the message
        requests.onNext(new byte[] {0x1A, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, 0x01});

        assertThat(ended.orTimeout(30, TimeUnit.SECONDS).join().isOk()).isFalse();
        await().atMost(PATIENCE)
                .untilAsserted(
                        () -> assertThat(server.stateReport().openStreams()).isZero());
        try (RawSession healthy = new RawSession(channel, true)) {
            assertThat(healthy.startNew(path, 5_000)).isPositive();
        }
        awaitQuiet(0);
    }

    @Test
    void emptyFirstRequestIsRefusedWithoutASession() {
        RawSession raw = new RawSession(channel, true);
        raw.send(SessionRequest.getDefaultInstance());

        assertThat(raw.awaitClosed().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        awaitQuiet(0);
    }

    @Test
    void clientsDisconnectingMidAcquireAreCleanedUpAfterTheirTimeout() {
        RawSession owner = new RawSession(channel, true);
        owner.startNew(path, 500);
        owner.send(SessionProtocolIT.create(1, "s", 1));
        assertThat(owner.next().getCreateSemaphoreResult().getStatus()).isEqualTo(StatusCode.SUCCESS);
        owner.send(SessionProtocolIT.acquire(2, "s", 1, 60_000));
        assertThat(owner.next().getAcquireSemaphoreResult().getAcquired()).isTrue();
        RawSession waiter = new RawSession(channel, true);
        waiter.startNew(path, 60_000);
        waiter.send(SessionProtocolIT.acquire(1, "s", 1, 60_000));
        assertThat(waiter.next().hasAcquireSemaphorePending()).isTrue();
        RawSession vanishing = new RawSession(channel, true);
        vanishing.startNew(path, 500);
        vanishing.send(SessionProtocolIT.acquire(1, "s", 1, 60_000));
        assertThat(vanishing.next().hasAcquireSemaphorePending()).isTrue();

        // The owner and a queued waiter vanish mid-acquire; the remaining waiter inherits the semaphore once
        // their sessions time out.
        owner.cancel();
        vanishing.cancel();

        var result = waiter.next().getAcquireSemaphoreResult();
        assertThat(result.getReqId()).isEqualTo(1);
        assertThat(result.getAcquired()).isTrue();
        await().atMost(PATIENCE).untilAsserted(() -> {
            StateReport report = server.stateReport();
            assertThat(report.violations()).isEmpty();
            assertThat(nodeReport(report).sessions()).isEqualTo(1);
            assertThat(nodeReport(report).owners()).isEqualTo(1);
            assertThat(nodeReport(report).waiters()).isZero();
        });
        waiter.close();
    }

    @Test
    void fiveHundredSessionsChurningConcurrentlyLeaveAConsistentNode() {
        int transports = 10;
        int sessionsPerTransport = 50;
        int rounds = 4;
        List<GrpcTransport> clients = new ArrayList<>();
        List<CoordinationSession> sessions = new ArrayList<>();
        String node = path.substring(server.database().length() + 1);
        try {
            for (int t = 0; t < transports; t++) {
                GrpcTransport transport = GrpcTransport.forConnectionString(server.connectionString())
                        .build();
                clients.add(transport);
                CoordinationClient client = CoordinationClient.newClient(transport);
                for (int s = 0; s < sessionsPerTransport; s++) {
                    sessions.add(client.createSession(
                            node,
                            CoordinationSessionSettings.newBuilder()
                                    .withConnectTimeout(Duration.ofSeconds(10))
                                    .build()));
                }
            }
            CompletableFuture.allOf(
                            sessions.stream().map(CoordinationSession::connect).toArray(CompletableFuture[]::new))
                    .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertThat(sessions.get(0).createSemaphore("shared", 10).join().isSuccess())
                    .isTrue();

            AtomicInteger acquired = new AtomicInteger();
            List<CompletableFuture<Void>> loops = sessions.stream()
                    .map(session -> churn(session, rounds, acquired))
                    .toList();
            CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new))
                    .get(3 * PATIENCE.toSeconds(), TimeUnit.SECONDS);

            assertThat(acquired.get()).isEqualTo(sessions.size() * rounds * 2);
            // 500 sessions, still one thread for the node: sessions are state, not threads.
            assertThat(threadsOfThisNode()).hasSize(1);
            assertThat(server.stateReport().violations()).isEmpty();
            var described = sessions.get(0)
                    .describeSemaphore("shared", DescribeSemaphoreMode.WITH_OWNERS_AND_WAITERS)
                    .join()
                    .getValue();
            assertThat(described.getCount()).isZero();
            assertThat(described.getOwnersList()).isEmpty();
            assertThat(described.getWaitersList()).isEmpty();
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            CompletableFuture.allOf(
                            sessions.stream().map(CoordinationSession::stop).toArray(CompletableFuture[]::new))
                    .orTimeout(60, TimeUnit.SECONDS)
                    .exceptionally(e -> null)
                    .join();
            clients.forEach(GrpcTransport::close);
        }
        awaitQuiet(0);
        var dropped = CoordinationServiceGrpc.newBlockingStub(channel)
                .dropNode(DropNodeRequest.newBuilder().setPath(path).build());
        assertThat(dropped.getOperation().getStatus()).isEqualTo(StatusCode.SUCCESS);
        await().atMost(PATIENCE).until(() -> threadsOfThisNode().isEmpty());
    }

    private List<String> threadsOfThisNode() {
        String name = "coordination-node" + path.replace('/', '-');
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(name::equals)
                .toList();
    }

    /** acquire 1 of "shared" (persistent) and an ephemeral exclusive lock, release both, {@code rounds} times. */
    private static CompletableFuture<Void> churn(CoordinationSession session, int rounds, AtomicInteger acquired) {
        if (rounds == 0) {
            return CompletableFuture.completedFuture(null);
        }
        String lock = "lock-" + ThreadLocalRandom.current().nextInt(20);
        return session.acquireSemaphore("shared", 1, Duration.ofSeconds(60))
                .thenCompose(shared -> {
                    expectSuccess(shared);
                    acquired.incrementAndGet();
                    return session.acquireEphemeralSemaphore(lock, true, Duration.ofSeconds(60))
                            .thenCompose(exclusive -> {
                                expectSuccess(exclusive);
                                acquired.incrementAndGet();
                                return exclusive.getValue().release();
                            })
                            .thenCompose(v -> shared.getValue().release());
                })
                .thenCompose(v -> churn(session, rounds - 1, acquired));
    }

    private static void expectSuccess(Result<?> result) {
        if (!result.isSuccess()) {
            throw new AssertionError("acquire failed: " + result.getStatus());
        }
    }

    private void awaitQuiet(int sessions) {
        await().atMost(PATIENCE).untilAsserted(() -> {
            StateReport report = server.stateReport();
            assertThat(report.violations()).isEmpty();
            assertThat(report.openStreams()).isZero();
            assertThat(nodeReport(report).sessions()).isEqualTo(sessions);
            assertThat(nodeReport(report).attachedSessions()).isZero();
        });
    }

    private NodeStateReport nodeReport(StateReport report) {
        return report.nodes().stream()
                .filter(n -> n.path().equals(path))
                .findFirst()
                .orElseThrow();
    }

    /** Passes bytes through untouched, so that a client can send what no protobuf parser accepts. */
    private static final class BytesMarshaller implements MethodDescriptor.Marshaller<byte[]> {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
