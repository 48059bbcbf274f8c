package dev.egress.bench.coordination;

import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.settings.CoordinationSessionSettings;
import tech.ydb.core.Status;
import tech.ydb.core.grpc.GrpcTransport;

/** An embedded node with one SDK transport and a node, as the benchmarks' shared setup. */
final class CoordinationBenchFixture implements AutoCloseable {

    static final String NODE = "bench";

    private final EmbeddedCoordinationNode server;
    private final GrpcTransport transport;
    private final CoordinationClient client;
    private final List<CoordinationSession> sessions = new ArrayList<>();

    CoordinationBenchFixture() {
        server = EmbeddedCoordinationNode.start(0);
        transport = GrpcTransport.forConnectionString(server.connectionString()).build();
        client = CoordinationClient.newClient(transport);
        expect(client.createNode(NODE).join(), "create node");
    }

    /** A connected session with the default (SDK) session timeout. */
    synchronized CoordinationSession session() {
        CoordinationSession session = client.createSession(
                NODE,
                CoordinationSessionSettings.newBuilder()
                        .withConnectTimeout(Duration.ofSeconds(5))
                        .build());
        expect(session.connect().join(), "connect");
        sessions.add(session);
        return session;
    }

    static void expect(Status status, String what) {
        if (!status.isSuccess()) {
            throw new IllegalStateException(what + ": " + status);
        }
    }

    @Override
    public void close() {
        for (CoordinationSession session : sessions) {
            try {
                session.stop().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                // shutting down anyway
            }
        }
        transport.close();
        server.close();
    }
}
