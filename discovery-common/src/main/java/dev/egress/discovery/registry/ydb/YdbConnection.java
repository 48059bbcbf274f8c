package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.RegistrySettings;
import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.common.retry.RetryUntilElapsed;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.settings.CoordinationSessionSettings;
import tech.ydb.core.Status;
import tech.ydb.core.StatusCode;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.core.grpc.GrpcTransportBuilder;
import tech.ydb.core.impl.pool.DefaultChannelFactory;
import tech.ydb.core.impl.pool.ManagedChannelFactory;

/**
 * The transport and coordination client of one registry participant, built lazily off the caller's
 * thread: {@code GrpcTransport.build()} blocks on discovery, and a Border or App must start while YDB
 * is down. A failed build is retried by the next {@link #client()} call. Thread-safe.
 */
final class YdbConnection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(YdbConnection.class);
    /** Bounds a discovery call so a half-open endpoint cannot stall start-up for the SDK's default 60 s. */
    private static final Duration DISCOVERY_TIMEOUT = Duration.ofSeconds(10);

    private final RegistrySettings settings;
    private final ExecutorService blocking;
    /** Every channel the transport opened, so {@link #abandon()} can cut them like a dying process would. */
    private final Set<ManagedChannel> channels = ConcurrentHashMap.newKeySet();
    private final List<ClientInterceptor> interceptors;
    private CompletableFuture<CoordinationClient> client;
    private GrpcTransport transport;
    private boolean closed;

    /**
     * @param interceptors added to every channel (tests cut streams with one); empty in production
     */
    YdbConnection(RegistrySettings settings, String threadName, List<ClientInterceptor> interceptors) {
        this.settings = settings;
        this.interceptors = List.copyOf(interceptors);
        this.blocking = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, threadName);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * The coordination client, building the transport first if needed.
     *
     * @return completes with the client, or fails if the transport could not be built (call again to retry)
     */
    synchronized CompletableFuture<CoordinationClient> client() {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("registry connection closed"));
        }
        if (client == null || client.isCompletedExceptionally()) {
            client = CompletableFuture.supplyAsync(this::build, blocking);
        }
        return client;
    }

    private CoordinationClient build() {
        GrpcTransport built = GrpcTransport.forConnectionString(settings.connectionString())
                .withDiscoveryTimeout(DISCOVERY_TIMEOUT)
                .withChannelFactoryBuilder(this::trackingChannels)
                .build();
        synchronized (this) {
            if (closed) {
                built.close();
                throw new IllegalStateException("registry connection closed");
            }
            transport = built;
        }
        log.info("Registry transport to {} is up", settings.connectionString());
        return CoordinationClient.newClient(built);
    }

    private ManagedChannelFactory trackingChannels(GrpcTransportBuilder builder) {
        ManagedChannelFactory delegate = interceptors.isEmpty()
                ? DefaultChannelFactory.build(builder)
                : DefaultChannelFactory.build(builder, channel -> channel.intercept(interceptors));
        return new ManagedChannelFactory() {
            @Override
            public ManagedChannel newManagedChannel(String host, int port) {
                ManagedChannel channel = delegate.newManagedChannel(host, port);
                channels.removeIf(ManagedChannel::isTerminated); // discovery opens a channel per run
                channels.add(channel);
                return channel;
            }

            @Override
            public long getConnectTimeoutMs() {
                return delegate.getConnectTimeoutMs();
            }
        };
    }

    /**
     * Creates the coordination node if it does not exist; an existing node is success.
     *
     * @param coordination the client
     * @return the status (SUCCESS or a failure)
     */
    CompletableFuture<Status> ensureNode(CoordinationClient coordination) {
        return coordination.createNode(settings.node())
                .thenApply(status -> status.getCode() == StatusCode.ALREADY_EXISTS ? Status.SUCCESS : status);
    }

    /**
     * A new, unconnected session on the node. Its connect timeout is the server-side session timeout;
     * reattach attempts stop once that much time passed, because by then the server has deleted the
     * session and every further attempt is answered SESSION_EXPIRED.
     *
     * @param coordination the client
     * @param executor     where the SDK completes futures (a {@link RegistryLoop})
     * @return the session
     */
    CoordinationSession newSession(CoordinationClient coordination, Executor executor) {
        long timeout = settings.sessionTimeout().toMillis();
        return coordination.createSession(settings.node(), CoordinationSessionSettings.newBuilder()
                .withConnectTimeout(settings.sessionTimeout())
                .withRetryPolicy(new RetryUntilElapsed(timeout, Math.max(10, Math.min(250, timeout / 4)), 5))
                .withExecutor(executor)
                .build());
    }

    RegistrySettings settings() {
        return settings;
    }

    /**
     * Cuts every channel at once, without ending any call: the server sees every stream break as if
     * this process died. For tests and benchmarks that simulate a crash.
     */
    void abandon() {
        for (ManagedChannel channel : channels) {
            channel.shutdownNow();
        }
        close();
    }

    /** Closes the transport (after the sessions were stopped, so nothing waits on open calls). */
    @Override
    public void close() {
        GrpcTransport current;
        synchronized (this) {
            closed = true;
            current = transport;
            transport = null;
        }
        blocking.shutdownNow();
        if (current != null) {
            current.close();
        }
    }

    /**
     * Unwraps the failure of a future for logging.
     *
     * @param failure a failure from a future
     * @return the cause that says what happened
     */
    static Throwable cause(Throwable failure) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
