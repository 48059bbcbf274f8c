package dev.egress.ydb.coordination.testing;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cuts the coordination {@code Session} streams of one participant, as a network blip would, while the
 * channel stays usable: the SDK then reattaches the same session (RECONNECTING, RECONNECTED). A client
 * interceptor (installed through the SDK's public {@code withChannelInitializer}), so it works against any
 * server: the conformance suite and registry-ydb's registry tests share it through this module's
 * test-jar.
 */
public final class StreamCutter implements ClientInterceptor {

    private static final String SESSION_METHOD = "Ydb.Coordination.V1.CoordinationService/Session";

    private final Set<ClientCall<?, ?>> open = ConcurrentHashMap.newKeySet();

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        ClientCall<Q, R> call = next.newCall(method, options);
        if (!SESSION_METHOD.equals(method.getFullMethodName())) {
            return call;
        }
        return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                ClientCall<Q, R> self = this;
                open.add(self);
                super.start(
                        new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                            @Override
                            public void onClose(Status status, Metadata trailers) {
                                open.remove(self);
                                super.onClose(status, trailers);
                            }
                        },
                        headers);
            }
        };
    }

    /**
     * How many session streams are open.
     *
     * @return the count
     */
    public int open() {
        return open.size();
    }

    /**
     * Cancels every open session stream.
     *
     * @return how many were cut
     */
    public int cut() {
        List<ClientCall<?, ?>> calls = List.copyOf(open);
        calls.forEach(call -> call.cancel("test cuts the stream", null));
        return calls.size();
    }
}
