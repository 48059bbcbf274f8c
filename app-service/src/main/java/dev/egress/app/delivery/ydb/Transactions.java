package dev.egress.app.delivery.ydb;

import dev.egress.app.delivery.DeliveryStoreException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import tech.ydb.common.transaction.TxMode;
import tech.ydb.core.Result;
import tech.ydb.core.Status;
import tech.ydb.query.QueryClient;
import tech.ydb.query.QueryTransaction;
import tech.ydb.query.tools.QueryReader;
import tech.ydb.query.tools.SessionRetryContext;
import tech.ydb.table.query.Params;

/**
 * Runs a body as one serializable read-write transaction through {@link SessionRetryContext}: an aborted commit
 * (another transaction changed what this one read) runs the whole body again on fresh reads, which is what makes
 * the store's read-then-write operations compare-and-set. A domain refusal thrown by the body rolls back and ends
 * the retries; a YDB failure that the context does not retry becomes a {@link DeliveryStoreException}.
 *
 * <p>The body runs on {@code executor}, never on an SDK thread, because it waits for each statement in turn.
 */
final class Transactions {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final SessionRetryContext retry;
    private final Executor executor;

    Transactions(QueryClient client, Executor executor) {
        this.retry = SessionRetryContext.create(client).build();
        this.executor = executor;
    }

    /** Runs {@code body} in one serializable transaction and commits it. */
    <T> T serializable(Function<Tx, T> body) {
        AtomicReference<RuntimeException> refused = new AtomicReference<>();
        Result<T> result = await(retry.supplyResult(session -> CompletableFuture.supplyAsync(
                () -> {
                    refused.set(null);
                    Tx tx = new Tx(session.createNewTransaction(TxMode.SERIALIZABLE_RW));
                    try {
                        T value = body.apply(tx);
                        Result<?> committed = await(tx.tx.commit());
                        return committed.isSuccess() ? Result.success(value) : Result.<T>fail(committed.getStatus());
                    } catch (Failed e) {
                        tx.tx.rollback();
                        return Result.<T>fail(e.status);
                    } catch (DeliveryStoreException e) {
                        tx.tx.rollback();
                        refused.set(e);
                        return Result.<T>success(null);
                    }
                },
                executor)));
        if (refused.get() != null) {
            throw refused.get();
        }
        if (!result.isSuccess()) {
            throw new DeliveryStoreException("delivery store: " + result.getStatus());
        }
        return result.getValue();
    }

    /** Runs one statement outside a transaction: DDL. */
    void scheme(String text) {
        Result<QueryReader> r =
                await(retry.supplyResult(s -> QueryReader.readFrom(s.createQuery(text, TxMode.NONE, Params.empty()))));
        if (!r.isSuccess()) {
            throw new DeliveryStoreException("delivery store schema: " + r.getStatus());
        }
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeliveryStoreException("delivery store: interrupted");
        } catch (ExecutionException | TimeoutException e) {
            throw new DeliveryStoreException("delivery store: " + e);
        }
    }

    /** One open transaction: statements run in order, each waited for. */
    static final class Tx {
        private final QueryTransaction tx;

        private Tx(QueryTransaction tx) {
            this.tx = tx;
        }

        /** Runs a statement in the transaction; a failure ends the attempt (retried when the SDK retries it). */
        QueryReader run(String text, Params params) {
            Result<QueryReader> r = await(QueryReader.readFrom(tx.createQuery(text, params)));
            if (!r.isSuccess()) {
                throw new Failed(r.getStatus());
            }
            return r.getValue();
        }
    }

    /** A statement's failure, carried out of the body to the retry context. */
    private static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Status status;

        Failed(Status status) {
            super(status.toString(), null, false, false);
            this.status = status;
        }
    }
}
