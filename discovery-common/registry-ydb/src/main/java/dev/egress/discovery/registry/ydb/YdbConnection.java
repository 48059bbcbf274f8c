package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.RegistryException;
import dev.egress.discovery.registry.RegistrySettings;
import io.grpc.ClientInterceptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.common.retry.RetryUntilElapsed;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.settings.CoordinationSessionSettings;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.core.Result;
import tech.ydb.core.Status;
import tech.ydb.core.StatusCode;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.core.grpc.GrpcTransportBuilder;

/**
 * The transport and coordination client of one registry participant, built lazily off the caller's
 * thread: {@code GrpcTransport.build()} blocks on discovery, and a Border or App must start while YDB
 * is down. A failed build is retried by the next {@link #client()} call. Thread-safe.
 */
final class YdbConnection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(YdbConnection.class);
    /**
     * Bounds a discovery call. The SDK's call waits for the channel to become ready until this deadline, so
     * while YDB is down every build attempt takes this long: short enough to notice YDB coming back soon,
     * long enough for a loaded cluster (the SDK's default is 60 s).
     */
    private static final Duration DISCOVERY_TIMEOUT = Duration.ofSeconds(5);
    /** How long any one registry request may take before the session is presumed dead. */
    static final Duration STEP_TIMEOUT = Duration.ofSeconds(15);

    private final RegistrySettings settings;
    private final ExecutorService blocking;
    /** Every call the transport has open, so {@link #abandon()} can break them like a dying process would. */
    private final OpenCalls calls = new OpenCalls();
    /** On every channel: {@link #calls} first, then the tests' interceptors. */
    private final ClientInterceptor[] interceptors;

    private CompletableFuture<CoordinationClient> client;
    private GrpcTransport transport;
    private boolean closed;

    /**
     * @param interceptors added to every channel (tests cut streams with one); empty in production
     */
    YdbConnection(RegistrySettings settings, String threadName, List<ClientInterceptor> interceptors) {
        this.settings = settings;
        List<ClientInterceptor> all = new ArrayList<>(interceptors);
        all.add(calls); // added last, so it runs first: it sees every call, even one a test's interceptor cuts
        this.interceptors = all.toArray(ClientInterceptor[]::new);
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
        GrpcTransportBuilder builder = GrpcTransport.forConnectionString(settings.connectionString())
                .withDiscoveryTimeout(DISCOVERY_TIMEOUT)
                // The public initializer, present in core 2.2 and 2.3 alike (the channel factories are impl classes).
                .withChannelInitializer(channel -> channel.intercept(interceptors));
        TokenCredentials.of(settings.auth()).ifPresent(builder::withAuthProvider);
        Path ca = settings.auth().caCertificates();
        if (ca != null) {
            try {
                builder.withSecureConnection(Files.readAllBytes(ca));
            } catch (IOException e) {
                throw new UncheckedIOException("registry CA certificates " + ca + " cannot be read", e);
            }
        }
        GrpcTransport built = builder.build();
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

    /**
     * Opens a session that is ready for use: builds the transport if needed, creates the node and then,
     * inside the connected session, the persistent semaphore (an existing node or semaphore is success,
     * so whoever starts first creates them). Every step is bounded by {@link #STEP_TIMEOUT}.
     *
     * @param executor where the SDK completes the session's futures (a {@link RegistryLoop})
     * @param onState  receives every state change of the new session, with the session
     * @return the connected session, or a failure naming the step (the half-open session is stopped)
     */
    CompletableFuture<CoordinationSession> openSession(
            Executor executor, BiConsumer<CoordinationSession, CoordinationSession.State> onState) {
        CompletableFuture<CoordinationClient> client = client().exceptionally(failure -> {
            throw new RegistryException(
                    "connect to " + settings.connectionString() + ": " + cause(failure), cause(failure));
        });
        return client.thenCompose(coordination -> step("create node " + settings.node(), ensureNode(coordination))
                .thenCompose(created -> {
                    CoordinationSession session = newSession(coordination, executor);
                    session.addStateListener(state -> onState.accept(session, state));
                    return step("start a session", session.connect())
                            // A read-only participant opens without the semaphore and finds it (or waits) when it
                            // reads.
                            .thenCompose(started -> settings.createIfMissing()
                                    ? step("create semaphore " + settings.semaphore(), ensureSemaphore(session))
                                    : CompletableFuture.completedFuture(Status.SUCCESS))
                            .thenApply(ready -> session)
                            .whenComplete((ready, failure) -> {
                                if (failure != null) {
                                    session.stop();
                                }
                            });
                }));
    }

    /**
     * Creates the persistent registry semaphore (limit Long.MAX_VALUE) if it does not exist.
     *
     * @param session a connected session
     * @return SUCCESS if the semaphore exists now, else the failure
     */
    CompletableFuture<Status> ensureSemaphore(CoordinationSession session) {
        if (!settings.createIfMissing()) {
            // Read-only participant: only look. NOT_FOUND until a Border has created it.
            return session.describeSemaphore(settings.semaphore(), DescribeSemaphoreMode.DATA_ONLY)
                    .thenApply(Result::getStatus);
        }
        return session.createSemaphore(settings.semaphore(), Long.MAX_VALUE).thenApply(YdbConnection::existing);
    }

    private CompletableFuture<Status> ensureNode(CoordinationClient coordination) {
        if (!settings.createIfMissing()) {
            // Read-only participant: a missing node fails the session's start instead, and is retried.
            return CompletableFuture.completedFuture(Status.SUCCESS);
        }
        return coordination.createNode(settings.node()).thenApply(YdbConnection::existing);
    }

    private static Status existing(Status status) {
        return status.getCode() == StatusCode.ALREADY_EXISTS ? Status.SUCCESS : status;
    }

    private static CompletableFuture<Status> step(String name, CompletableFuture<Status> call) {
        return bounded(call).thenApply(status -> {
            if (!status.isSuccess()) {
                throw new RegistryException(name + ": " + status);
            }
            return status;
        });
    }

    /**
     * Bounds a registry call, so a request that is never answered (a half-open stream; SDK 2.2.10 also
     * has no session start timeout) fails with a {@link java.util.concurrent.TimeoutException}.
     *
     * @param call the call
     * @param <T>  its result type
     * @return the same call, failing after {@link #STEP_TIMEOUT}
     */
    static <T> CompletableFuture<T> bounded(CompletableFuture<T> call) {
        return call.orTimeout(STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * A new, unconnected session on the node. Its connect timeout is the server-side session timeout;
     * reattach attempts stop once that much time passed, because by then the server has deleted the
     * session and every further attempt is answered SESSION_EXPIRED.
     */
    private CoordinationSession newSession(CoordinationClient coordination, Executor executor) {
        long timeout = settings.sessionTimeout().toMillis();
        return coordination.createSession(
                settings.node(),
                CoordinationSessionSettings.newBuilder()
                        .withConnectTimeout(settings.sessionTimeout())
                        .withRetryPolicy(new RetryUntilElapsed(timeout, Math.max(10, Math.min(250, timeout / 4)), 5))
                        .withExecutor(executor)
                        .build());
    }

    RegistrySettings settings() {
        return settings;
    }

    /**
     * Breaks every open call at once, without ending any of them the protocol's way (no session stop): the server
     * sees every stream break as if this process died. For tests and benchmarks that simulate a crash.
     */
    void abandon() {
        calls.breakAll();
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
     * A one-line reason for logs: expected failures (timeouts, refused connections) need no stack trace.
     *
     * @param status  the status, when the call completed
     * @param failure the failure, when it did not
     * @return the reason
     */
    static String reason(Status status, Throwable failure) {
        return failure != null ? String.valueOf(cause(failure)) : String.valueOf(status);
    }

    /**
     * A one-line reason for logs.
     *
     * @param result  the result, when the call completed
     * @param failure the failure, when it did not
     * @return the reason
     */
    static String reason(Result<?> result, Throwable failure) {
        return failure != null ? String.valueOf(cause(failure)) : String.valueOf(result.getStatus());
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
