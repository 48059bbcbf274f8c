package dev.egress.discovery.registry.ydb;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.registry.DecisionStore;
import dev.egress.discovery.registry.RegistryException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.core.Status;
import tech.ydb.core.StatusCode;

/**
 * A Border's operator decisions as the data of a persistent semaphore of its own,
 * {@code <egress.registry.semaphore>/decisions/<borderId>} (docs/architecture.md, "The registry protocol"):
 * read with describe, written with update, created (limit 1, never acquired) by the first write. Nobody
 * acquires it, so it lives until deleted, across sessions, Border restarts and the slot's expiry.
 *
 * <p>The store opens one session of its own at its first operation and keeps it, so an operator's change costs
 * one or two requests on an open session. The session is replaced at the next operation after any failure or
 * disconnect (a reattached session of SDK 2.2.10 may hang, see {@link SessionKeeper}): a store that is
 * idle almost always needs no reconnect machinery of its own.
 */
final class YdbDecisionStore implements DecisionStore {

    /** The semaphore is a record holder, never acquired: limit 1 is the smallest YDB accepts. */
    private static final long LIMIT = 1;

    private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);

    private final YdbConnection connection;
    private final RegistryLoop loop;
    private final String name;
    private CompletableFuture<CoordinationSession> session; // guarded by this
    private boolean closed; // guarded by this

    YdbDecisionStore(YdbConnection connection, RegistryLoop loop, BorderId borderId) {
        this.connection = connection;
        this.loop = loop;
        this.name = semaphoreName(connection.settings().semaphore(), borderId);
    }

    /**
     * The semaphore holding a Border's decisions: under the registry semaphore's name, so that two platforms
     * sharing one coordination node (each with its own {@code egress.registry.semaphore}) keep apart.
     *
     * @param registrySemaphore {@code egress.registry.semaphore}
     * @param borderId          the Border
     * @return the semaphore name
     */
    static String semaphoreName(String registrySemaphore, BorderId borderId) {
        return registrySemaphore + "/decisions/" + borderId.value();
    }

    @Override
    public CompletableFuture<Optional<byte[]>> read() {
        return inSession(
                "read decisions " + name,
                session -> YdbConnection.bounded(session.describeSemaphore(name, DescribeSemaphoreMode.DATA_ONLY))
                        .thenApply(result -> {
                            if (result.getStatus().getCode() == StatusCode.NOT_FOUND) {
                                return Optional.<byte[]>empty(); // never written: no decision was ever taken
                            }
                            if (!result.isSuccess()) {
                                throw new RegistryException(String.valueOf(result.getStatus()));
                            }
                            return Optional.of(result.getValue().getData());
                        }));
    }

    @Override
    public CompletableFuture<Void> write(byte[] record) {
        Objects.requireNonNull(record, "record");
        if (record.length == 0 || record.length > MAX_BYTES) {
            throw new IllegalArgumentException(
                    "record: %d bytes (expected: 1..%d)".formatted(record.length, MAX_BYTES));
        }
        byte[] copy = record.clone();
        return inSession(
                "write decisions " + name,
                session -> update(session, copy)
                        .thenCompose(updated -> updated.getCode() == StatusCode.NOT_FOUND
                                // The first write creates the semaphore with the record as its data; a create that
                                // lost a race (an earlier write's answer timed out) finds it and updates instead.
                                ? YdbConnection.bounded(session.createSemaphore(name, LIMIT, copy))
                                        .thenCompose(created -> created.getCode() == StatusCode.ALREADY_EXISTS
                                                ? update(session, copy)
                                                : CompletableFuture.completedFuture(created))
                                : CompletableFuture.completedFuture(updated))
                        .thenApply(status -> {
                            if (!status.isSuccess()) {
                                throw new RegistryException(String.valueOf(status));
                            }
                            return null;
                        }));
    }

    private CompletableFuture<Status> update(CoordinationSession session, byte[] record) {
        return YdbConnection.bounded(session.updateSemaphore(name, record));
    }

    /** Runs {@code operation} in the store's session, drops that session if anything fails, and names failures. */
    private <T> CompletableFuture<T> inSession(
            String what, Function<CoordinationSession, CompletableFuture<T>> operation) {
        return session()
                .thenCompose(session -> operation.apply(session).whenComplete((value, failure) -> {
                    if (failure != null) {
                        discard(session);
                    }
                }))
                .exceptionally(failure -> {
                    Throwable cause = YdbConnection.cause(failure);
                    String reason = cause instanceof RegistryException ? cause.getMessage() : String.valueOf(cause);
                    throw new RegistryException(what + ": " + reason, cause);
                });
    }

    private synchronized CompletableFuture<CoordinationSession> session() {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("registry closed"));
        }
        if (session == null || session.isCompletedExceptionally()) {
            session = connection.openSession(loop.sdkExecutor(), (opened, state) -> {
                // A reattached session of SDK 2.2.10 may hang every request (see SessionKeeper): a session
                // that is anything but freshly connected is replaced by a new one at the next operation.
                if (state == CoordinationSession.State.RECONNECTING
                        || state == CoordinationSession.State.RECONNECTED
                        || state == CoordinationSession.State.LOST) {
                    discard(opened);
                }
            });
        }
        return session;
    }

    private void discard(CoordinationSession stale) {
        synchronized (this) {
            if (opened(session) == stale) {
                session = null;
            }
        }
        stale.stop();
    }

    /** Stops the store's session (before the transport closes). */
    void close() {
        CompletableFuture<CoordinationSession> current;
        synchronized (this) {
            closed = true;
            current = session;
            session = null;
        }
        CoordinationSession open = opened(current);
        if (open != null) {
            try {
                open.stop().get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // The server expires the session after its timeout anyway; the store holds nothing in it.
            }
        }
    }

    private static CoordinationSession opened(CompletableFuture<CoordinationSession> future) {
        return future != null && future.isDone() && !future.isCompletedExceptionally() ? future.join() : null;
    }
}
