package dev.egress.ydb.coordination.server;

import io.grpc.stub.StreamObserver;
import java.util.function.IntSupplier;
import tech.ydb.proto.discovery.DiscoveryProtos.EndpointInfo;
import tech.ydb.proto.discovery.DiscoveryProtos.ListEndpointsRequest;
import tech.ydb.proto.discovery.DiscoveryProtos.ListEndpointsResponse;
import tech.ydb.proto.discovery.DiscoveryProtos.ListEndpointsResult;
import tech.ydb.proto.discovery.DiscoveryProtos.WhoAmIRequest;
import tech.ydb.proto.discovery.DiscoveryProtos.WhoAmIResponse;
import tech.ydb.proto.discovery.DiscoveryProtos.WhoAmIResult;
import tech.ydb.proto.discovery.v1.DiscoveryServiceGrpc;

/**
 * {@code Ydb.Discovery.V1.DiscoveryService}: advertises this process as the only endpoint. The SDK sends every
 * call to what {@code ListEndpoints} returns, so the advertised address must be the one the server listens on.
 */
public final class DiscoveryGrpcService extends DiscoveryServiceGrpc.DiscoveryServiceImplBase {

    private static final String LOCATION = "embedded";

    private final String host;
    private final IntSupplier port;

    /**
     * @param host the address the server is bound to and clients can reach
     * @param port the port the server listens on (known only once bound, when port 0 was asked for)
     */
    public DiscoveryGrpcService(String host, IntSupplier port) {
        this.host = host;
        this.port = port;
    }

    @Override
    public void listEndpoints(ListEndpointsRequest request, StreamObserver<ListEndpointsResponse> responseObserver) {
        ListEndpointsResult result = ListEndpointsResult.newBuilder()
                .setSelfLocation(LOCATION)
                .addEndpoints(EndpointInfo.newBuilder()
                        .setAddress(host)
                        .setPort(port.getAsInt())
                        .setLocation(LOCATION)
                        .setNodeId(1)
                        .setLoadFactor(0f))
                .build();
        responseObserver.onNext(ListEndpointsResponse.newBuilder()
                .setOperation(Operations.success(result))
                .build());
        responseObserver.onCompleted();
    }

    @Override
    public void whoAmI(WhoAmIRequest request, StreamObserver<WhoAmIResponse> responseObserver) {
        // Anonymous access, as local-ydb without authentication.
        WhoAmIResult result = WhoAmIResult.newBuilder().setUser("anonymous").build();
        responseObserver.onNext(WhoAmIResponse.newBuilder()
                .setOperation(Operations.success(result))
                .build());
        responseObserver.onCompleted();
    }
}
