package dev.egress.ydb.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.util.UUID;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.CreateNodeRequest;
import tech.ydb.proto.coordination.v1.CoordinationServiceGrpc;

/**
 * One embedded node on a free port and a plaintext gRPC channel to it, for the tests that speak the session
 * protocol on the wire with the generated stubs ({@link SessionProtocolIT}, {@link RobustnessIT}); closed once
 * per class (hold it in a static {@code @AutoClose} field).
 *
 * @param server  the node
 * @param channel the channel to it
 */
record WireNode(EmbeddedCoordinationNode server, ManagedChannel channel) implements AutoCloseable {

    /** Starts a node on a free port and opens a channel to it. */
    static WireNode start() {
        EmbeddedCoordinationNode server = EmbeddedCoordinationNode.start(0);
        return new WireNode(
                server,
                NettyChannelBuilder.forAddress(server.host(), server.port())
                        .usePlaintext()
                        .build());
    }

    /**
     * Creates a fresh coordination node for one test.
     *
     * @param prefix the node's name before a random suffix
     * @return its path
     */
    String createNode(String prefix) {
        String path = server.database() + "/" + prefix + UUID.randomUUID();
        var response = CoordinationServiceGrpc.newBlockingStub(channel)
                .createNode(CreateNodeRequest.newBuilder().setPath(path).build());
        assertThat(response.getOperation().getStatus()).isEqualTo(StatusCode.SUCCESS);
        return path;
    }

    @Override
    public void close() {
        channel.shutdownNow();
        server.close();
    }
}
