package dev.egress.coordination.conformance;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A client interceptor (installed through the SDK's public {@code withChannelInitializer}) that can cut the
 * coordination {@code Session} streams of one transport, as a network blip would: the SDK then re-attaches its
 * session. Works against any server, which is why the conformance suite uses it instead of a server hook.
 */
final class StreamBreaker implements ClientInterceptor {

    private static final String SESSION_METHOD = "Ydb.Coordination.V1.CoordinationService/Session";

    private final Set<ClientCall<?, ?>> sessionCalls = ConcurrentHashMap.newKeySet();

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
                sessionCalls.add(self);
                super.start(new io.grpc.ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                    @Override
                    public void onClose(io.grpc.Status status, Metadata trailers) {
                        sessionCalls.remove(self);
                        super.onClose(status, trailers);
                    }
                }, headers);
            }
        };
    }

    /** Cancels every open session stream of this transport. */
    int breakAll() {
        List<ClientCall<?, ?>> calls = List.copyOf(sessionCalls);
        calls.forEach(call -> call.cancel("conformance test cuts the stream", null));
        return calls.size();
    }
}
