package dev.egress.ydb.coordination.server;

import dev.egress.ydb.coordination.node.CoordinationNode;
import dev.egress.ydb.coordination.node.CoordinationNodes;
import dev.egress.ydb.coordination.node.NodeOperationException;
import io.grpc.Context;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.proto.OperationProtos.Operation;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.AlterNodeRequest;
import tech.ydb.proto.coordination.AlterNodeResponse;
import tech.ydb.proto.coordination.CreateNodeRequest;
import tech.ydb.proto.coordination.CreateNodeResponse;
import tech.ydb.proto.coordination.DescribeNodeRequest;
import tech.ydb.proto.coordination.DescribeNodeResponse;
import tech.ydb.proto.coordination.DescribeNodeResult;
import tech.ydb.proto.coordination.DropNodeRequest;
import tech.ydb.proto.coordination.DropNodeResponse;
import tech.ydb.proto.coordination.SessionRequest;
import tech.ydb.proto.coordination.SessionResponse;
import tech.ydb.proto.coordination.v1.CoordinationServiceGrpc;
import tech.ydb.proto.scheme.SchemeOperationProtos.Entry;

/**
 * {@code Ydb.Coordination.V1.CoordinationService}: the node RPCs (answered inside {@code Operation}, errors
 * included) and the {@code Session} stream.
 */
public final class CoordinationGrpcService extends CoordinationServiceGrpc.CoordinationServiceImplBase {

    private static final Logger log = LoggerFactory.getLogger(CoordinationGrpcService.class);

    private final CoordinationNodes nodes;
    private final ScheduledExecutorService pinger;
    private final Set<SessionStream> streams = ConcurrentHashMap.newKeySet();

    /**
     * @param nodes  the database's nodes
     * @param pinger the timer running the server pings of all streams
     */
    public CoordinationGrpcService(CoordinationNodes nodes, ScheduledExecutorService pinger) {
        this.nodes = nodes;
        this.pinger = pinger;
    }

    /** Open session streams (started or not), for leak checks. */
    public int openStreams() {
        return streams.size();
    }

    @Override
    public StreamObserver<SessionRequest> session(StreamObserver<SessionResponse> responseObserver) {
        SessionStream stream = new SessionStream(
                (ServerCallStreamObserver<SessionResponse>) responseObserver, nodes, pinger, streams::remove);
        streams.add(stream);
        // The call's context is cancelled however the call ends — including paths that never reach the request
        // observer, such as a request that fails to parse — so it is the one reliable "stream is gone" signal.
        Context.current().addListener(context -> stream.callEnded(), Runnable::run);
        return stream;
    }

    @Override
    public void createNode(CreateNodeRequest request, StreamObserver<CreateNodeResponse> responseObserver) {
        Operation operation = run(() -> {
            nodes.create(request.getPath(), request.getConfig());
            return Operations.success();
        });
        responseObserver.onNext(
                CreateNodeResponse.newBuilder().setOperation(operation).build());
        responseObserver.onCompleted();
    }

    @Override
    public void alterNode(AlterNodeRequest request, StreamObserver<AlterNodeResponse> responseObserver) {
        Operation operation = run(() -> {
            nodes.alter(request.getPath(), request.getConfig());
            return Operations.success();
        });
        responseObserver.onNext(
                AlterNodeResponse.newBuilder().setOperation(operation).build());
        responseObserver.onCompleted();
    }

    @Override
    public void dropNode(DropNodeRequest request, StreamObserver<DropNodeResponse> responseObserver) {
        Operation operation = run(() -> {
            nodes.drop(request.getPath());
            return Operations.success();
        });
        responseObserver.onNext(
                DropNodeResponse.newBuilder().setOperation(operation).build());
        responseObserver.onCompleted();
    }

    @Override
    public void describeNode(DescribeNodeRequest request, StreamObserver<DescribeNodeResponse> responseObserver) {
        Operation operation = run(() -> {
            CoordinationNode node = nodes.require(request.getPath());
            String path = node.path();
            Entry self = Entry.newBuilder()
                    .setName(path.substring(path.lastIndexOf('/') + 1))
                    .setType(Entry.Type.COORDINATION_NODE)
                    .build();
            return Operations.success(DescribeNodeResult.newBuilder()
                    .setSelf(self)
                    .setConfig(node.config().toProto(path))
                    .build());
        });
        responseObserver.onNext(
                DescribeNodeResponse.newBuilder().setOperation(operation).build());
        responseObserver.onCompleted();
    }

    private static Operation run(Supplier<Operation> action) {
        try {
            return action.get();
        } catch (NodeOperationException e) {
            return Operations.failure(e.status(), e.getMessage());
        } catch (RuntimeException e) {
            log.error("Coordination node request failed", e);
            return Operations.failure(StatusCode.INTERNAL_ERROR, String.valueOf(e.getMessage()));
        }
    }
}
