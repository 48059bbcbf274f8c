package dev.egress.discovery.registry.ydb;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall.SimpleForwardingClientCall;
import io.grpc.ForwardingClientCallListener.SimpleForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every call a registry transport has open, so that {@link YdbConnection#abandon()} can break them all at once, as
 * a dying process would. It sits on the channels through the SDK's public channel initializer rather than by
 * wrapping the SDK's channel factory: the factory classes are the core's {@code impl} package, which changed
 * between SDK 2.2 and 2.3 (2.3 removed {@code DefaultChannelFactory}).
 */
final class OpenCalls implements ClientInterceptor {

    private final Set<ClientCall<?, ?>> open = ConcurrentHashMap.newKeySet();

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new SimpleForwardingClientCall<>(next.newCall(method, options)) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                ClientCall<Q, R> call = this;
                open.add(call);
                super.start(
                        new SimpleForwardingClientCallListener<>(listener) {
                            @Override
                            public void onClose(Status status, Metadata trailers) {
                                open.remove(call);
                                super.onClose(status, trailers);
                            }
                        },
                        headers);
            }
        };
    }

    /**
     * Resets every open call's stream without a word to the server (no half-close, no session stop): the server
     * sees each stream break, as when the process dies.
     */
    void breakAll() {
        for (ClientCall<?, ?> call : open) {
            call.cancel("registry connection abandoned", null);
        }
        open.clear();
    }
}
