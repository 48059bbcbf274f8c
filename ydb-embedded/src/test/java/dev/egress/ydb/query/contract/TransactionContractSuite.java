package dev.egress.ydb.query.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import tech.ydb.common.transaction.TxMode;
import tech.ydb.core.Result;
import tech.ydb.core.Status;
import tech.ydb.core.StatusCode;
import tech.ydb.core.grpc.GrpcRequestSettings;
import tech.ydb.proto.query.YdbQuery;
import tech.ydb.proto.query.v1.QueryServiceGrpc;
import tech.ydb.query.QuerySession;
import tech.ydb.query.QueryTransaction;
import tech.ydb.query.tools.QueryReader;
import tech.ydb.table.query.Params;
import tech.ydb.table.result.ResultSetReader;
import tech.ydb.table.values.PrimitiveValue;

/** Interactive transactions, optimistic locks, sessions and their errors, through the SDK. */
@Execution(ExecutionMode.CONCURRENT)
public abstract class TransactionContractSuite extends QueryContractFixture {

    private QuerySession session() {
        Result<QuerySession> s = get(client.createSession(PATIENCE));
        assertOk(s.getStatus());
        return s.getValue();
    }

    private static QueryReader read(QueryTransaction tx, String text) {
        Result<QueryReader> r = get(QueryReader.readFrom(tx.createQuery(text)));
        assertOk(r.getStatus());
        return r.getValue();
    }

    @Test
    void anOpenTransactionReadsItsOwnWritesWhichOthersSeeOnlyAfterCommit() {
        String t = table("rw", "CREATE TABLE $T (id Int32 NOT NULL, v Utf8, PRIMARY KEY (id))");
        try (QuerySession s = session()) {
            QueryTransaction tx = s.createNewTransaction(TxMode.SERIALIZABLE_RW);
            read(tx, "INSERT INTO " + t + " (id, v) VALUES (1, 'rec1'), (3, 'rec3')");
            assertThat(tx.getId()).isNotBlank();
            assertThat(ids(read(tx, "SELECT id FROM " + t + " ORDER BY id"))).containsExactly(1L, 3L);
            assertThat(ok("SELECT id FROM " + t).getResultSet(0).getRowCount()).isZero();
            assertOk(get(tx.commit()).getStatus());
            assertThat(tx.isActive()).isFalse();
        }
        assertThat(ids(ok("SELECT id FROM " + t + " ORDER BY id"))).containsExactly(1L, 3L);
    }

    @Test
    void aRolledBackTransactionLeavesNoTrace() {
        String t = table("rb", "CREATE TABLE $T (id Int32 NOT NULL, PRIMARY KEY (id))");
        try (QuerySession s = session()) {
            Result<QueryTransaction> begun = get(s.beginTransaction(TxMode.SERIALIZABLE_RW));
            assertOk(begun.getStatus());
            QueryTransaction tx = begun.getValue();
            assertThat(tx.getId()).isNotBlank();
            read(tx, "UPSERT INTO " + t + " (id) VALUES (7)");
            assertOk(get(tx.rollback()));
        }
        assertThat(ok("SELECT id FROM " + t).getResultSet(0).getRowCount()).isZero();
    }

    @Test
    void aWriterWhoseReadWasInvalidatedByAnotherCommitIsAborted() {
        String t = table("occ", "CREATE TABLE $T (id Int32 NOT NULL, n Int64, PRIMARY KEY (id))");
        ok("UPSERT INTO " + t + " (id, n) VALUES (1, 0)");
        try (QuerySession a = session()) {
            QueryTransaction tx = a.createNewTransaction(TxMode.SERIALIZABLE_RW);
            read(tx, "SELECT n FROM " + t + " WHERE id = 1");
            ok("UPDATE " + t + " SET n = 100 WHERE id = 1"); // another transaction commits meanwhile
            Result<QueryReader> write =
                    get(QueryReader.readFrom(tx.createQueryWithCommit("UPDATE " + t + " SET n = 1 WHERE id = 1")));
            assertThat(write.getStatus().getCode()).isEqualTo(StatusCode.ABORTED);
        }
        ResultSetReader rs = ok("SELECT n FROM " + t + " WHERE id = 1").getResultSet(0);
        rs.next();
        assertThat(rs.getColumn(0).getInt64()).isEqualTo(100);
    }

    @Test
    void aReadOnlyTransactionIsNeverAbortedAndReadsItsSnapshot() {
        String t = table("ro", "CREATE TABLE $T (id Int32 NOT NULL, PRIMARY KEY (id))");
        ok("UPSERT INTO " + t + " (id) VALUES (1)");
        try (QuerySession s = session()) {
            QueryTransaction tx = s.createNewTransaction(TxMode.SNAPSHOT_RO);
            assertThat(ids(read(tx, "SELECT id FROM " + t))).containsExactly(1L);
            ok("UPSERT INTO " + t + " (id) VALUES (2)");
            assertThat(ids(read(tx, "SELECT id FROM " + t))).containsExactly(1L);
            assertOk(get(tx.commit()).getStatus());
        }
        assertThat(query("SELECT id FROM " + t, TxMode.ONLINE_RO)
                        .getValue()
                        .getResultSet(0)
                        .getRowCount())
                .isEqualTo(2);
        assertThat(query("SELECT id FROM " + t, TxMode.STALE_RO).getStatus().isSuccess())
                .isTrue();
    }

    @Test
    void concurrentCompareAndSetThroughTheRetryContextLosesNoIncrement() throws Exception {
        String t = table("cas", "CREATE TABLE $T (id Int32 NOT NULL, n Int64, PRIMARY KEY (id))");
        ok("UPSERT INTO " + t + " (id, n) VALUES (1, 0)");
        int writers = 4;
        int each = 10;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        AtomicInteger attempts = new AtomicInteger();
        List<CompletableFuture<Status>> done = new ArrayList<>();
        for (int w = 0; w < writers * each; w++) {
            done.add(CompletableFuture.supplyAsync(
                    () -> get(retry.supplyStatus(s -> {
                        attempts.incrementAndGet();
                        QueryTransaction tx = s.createNewTransaction(TxMode.SERIALIZABLE_RW);
                        return QueryReader.readFrom(tx.createQuery("SELECT n FROM " + t + " WHERE id = 1"))
                                .thenCompose(r -> {
                                    if (!r.isSuccess()) {
                                        return CompletableFuture.completedFuture(r.getStatus());
                                    }
                                    ResultSetReader rs = r.getValue().getResultSet(0);
                                    rs.next();
                                    long n = rs.getColumn(0).getInt64();
                                    Params p = Params.of("$n", PrimitiveValue.newInt64(n + 1));
                                    return QueryReader.readFrom(tx.createQueryWithCommit(
                                                    "DECLARE $n AS Int64; UPDATE " + t + " SET n = $n WHERE id = 1", p))
                                            .thenApply(Result::getStatus);
                                });
                    })),
                    pool));
        }
        for (CompletableFuture<Status> f : done) {
            assertOk(f.get());
        }
        pool.shutdown();
        ResultSetReader rs = ok("SELECT n FROM " + t + " WHERE id = 1").getResultSet(0);
        rs.next();
        assertThat(rs.getColumn(0).getInt64()).isEqualTo(writers * each);
        assertThat(attempts.get()).isGreaterThanOrEqualTo(writers * each);
    }

    @Test
    void aCommittedTransactionIdIsForgotten() {
        String t = table("tx", "CREATE TABLE $T (id Int32 NOT NULL, PRIMARY KEY (id))");
        try (QuerySession s = session()) {
            QueryTransaction tx =
                    get(s.beginTransaction(TxMode.SERIALIZABLE_RW)).getValue();
            String id = tx.getId();
            read(tx, "UPSERT INTO " + t + " (id) VALUES (1)");
            assertOk(get(tx.commit()).getStatus());
            YdbQuery.CommitTransactionResponse again = get(transport.unaryCall(
                            QueryServiceGrpc.getCommitTransactionMethod(),
                            GrpcRequestSettings.newBuilder().build(),
                            YdbQuery.CommitTransactionRequest.newBuilder()
                                    .setSessionId(s.getId())
                                    .setTxId(id)
                                    .build()))
                    .getValue();
            assertThat(again.getStatus().name()).isEqualTo("NOT_FOUND");
        }
    }

    @Test
    void aDeletedSessionAnswersBadSessionAndThePoolReplacesIt() {
        try (QuerySession s = session()) {
            YdbQuery.DeleteSessionResponse deleted = get(transport.unaryCall(
                            QueryServiceGrpc.getDeleteSessionMethod(),
                            GrpcRequestSettings.newBuilder().build(),
                            YdbQuery.DeleteSessionRequest.newBuilder()
                                    .setSessionId(s.getId())
                                    .build()))
                    .getValue();
            assertThat(deleted.getStatus().name()).isEqualTo("SUCCESS");
            Result<QueryReader> r = get(QueryReader.readFrom(s.createQuery("SELECT 1", TxMode.NONE)));
            assertThat(r.getStatus().getCode()).isEqualTo(StatusCode.BAD_SESSION);
        }
        assertThat(ok("SELECT 1").getResultSetCount()).isEqualTo(1); // the retry context gets a fresh session
    }

    @Test
    void aSessionServesQueriesBackToBackWithoutSessionBusy() {
        try (QuerySession s = session()) {
            for (int i = 0; i < 200; i++) {
                Result<QueryReader> r = get(QueryReader.readFrom(s.createQuery("SELECT " + i, TxMode.NONE)));
                assertThat(r.getStatus().getCode()).as("query %d", i).isEqualTo(StatusCode.SUCCESS);
            }
        }
    }
}
