package dev.egress.bench.tables;

import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import dev.egress.ydb.coordination.NodeAccess;
import dev.egress.ydb.query.TableOptions;
import java.nio.file.Files;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import tech.ydb.common.transaction.TxMode;
import tech.ydb.core.Result;
import tech.ydb.core.Status;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.query.QueryClient;
import tech.ydb.query.QueryTransaction;
import tech.ydb.query.tools.QueryReader;
import tech.ydb.query.tools.SessionRetryContext;
import tech.ydb.table.query.Params;
import tech.ydb.table.result.ResultSetReader;
import tech.ydb.table.values.PrimitiveValue;

/**
 * Tables of the embedded node through the real SDK (ydb-sdk-query, SessionRetryContext), one workload after the
 * other, each for {@code DURATION_S} seconds after a warm-up: single-row transactional upserts; compare-and-set
 * (read + conditional write in one serializable transaction) by {@code WRITERS} writers on distinct keys and on
 * one key (abort rate = attempts / successes - 1); an index range read of 100 rows.
 *
 * <p>{@code java -cp … dev.egress.bench.tables.TablesBench memory|data-dir|grpc://host:port/db} — the first two
 * start a node in this JVM (the data directory in a temporary directory, fsync per group commit).
 */
public final class TablesBench {

    private static final int WRITERS = Integer.getInteger("writers", 8);
    private static final int SECONDS = Integer.getInteger("seconds", 10);
    private static final int WARMUP = Integer.getInteger("warmup", 3);

    private TablesBench() {}

    public static void main(String[] args) throws Exception {
        String target = args.length > 0 ? args[0] : "memory";
        EmbeddedCoordinationNode node = null;
        String connection = target;
        if (!target.startsWith("grpc")) {
            TableOptions options = TableOptions.IN_MEMORY;
            if (target.equals("data-dir")) {
                options = options.withDataDir(Files.createTempDirectory("tables-bench"));
            }
            node = EmbeddedCoordinationNode.start(
                    EmbeddedCoordinationNode.DEFAULT_HOST,
                    0,
                    EmbeddedCoordinationNode.DEFAULT_DATABASE,
                    NodeAccess.ANONYMOUS,
                    options);
            connection = node.connectionString();
        }
        try (GrpcTransport transport =
                        GrpcTransport.forConnectionString(connection).build();
                QueryClient client = QueryClient.newClient(transport)
                        .sessionPoolMaxSize(WRITERS * 2)
                        .build()) {
            SessionRetryContext retry = SessionRetryContext.create(client).build();
            new TablesBench.Run(retry, target).all();
        } finally {
            if (node != null) {
                node.close();
            }
        }
    }

    /** The workloads against one server. */
    private record Run(SessionRetryContext retry, String target) {

        void all() throws Exception {
            String suffix = Long.toString(System.nanoTime(), 36);
            String kv = "bench_kv_" + suffix;
            String idx = "bench_idx_" + suffix;
            exec("CREATE TABLE " + kv + " (id Int64 NOT NULL, v Int64, note Utf8, PRIMARY KEY (id))", TxMode.NONE);
            exec(
                    "CREATE TABLE " + idx + " (id Int64 NOT NULL, owner Utf8, at Timestamp, body Utf8,"
                            + " INDEX by_owner GLOBAL SYNC ON (owner, at), PRIMARY KEY (id))",
                    TxMode.NONE);
            seed(kv, idx);
            report("upsert", Load.run(WRITERS, WARMUP, SECONDS, (w, i) -> upsert(kv, w * 1_000_000L + i)));
            report("cas-distinct", Load.run(WRITERS, WARMUP, SECONDS, (w, i) -> cas(kv, w)));
            report("cas-same", Load.run(WRITERS, WARMUP, SECONDS, (w, i) -> cas(kv, 0)));
            report("index-read-100", Load.run(WRITERS, WARMUP, SECONDS, (w, i) -> indexRead(idx, (int) (i % 10))));
        }

        private void report(String name, Load.Result r) {
            System.out.printf(
                    Locale.ROOT,
                    "%-10s %-15s writers=%d ops=%d ops/s=%.0f p50=%.2fms p99=%.2fms max=%.2fms attempts/op=%.3f"
                            + " failures=%d%n",
                    target,
                    name,
                    WRITERS,
                    r.ops(),
                    r.opsPerSecond(),
                    r.p50Millis(),
                    r.p99Millis(),
                    r.maxMillis(),
                    r.attemptsPerOp(),
                    r.failures());
        }

        private void seed(String kv, String idx) {
            for (int w = 0; w < WRITERS; w++) {
                exec("UPSERT INTO " + kv + " (id, v) VALUES (" + w + ", 0)", TxMode.SERIALIZABLE_RW);
            }
            StringBuilder rows = new StringBuilder();
            for (int i = 0; i < 1000; i++) {
                rows.append(i == 0 ? "" : ", ")
                        .append("(")
                        .append(i)
                        .append(", 'owner")
                        .append(i % 10)
                        .append("', Timestamp('2026-01-01T00:00:00Z') + Interval('PT")
                        .append(i)
                        .append("S'), 'b')");
            }
            exec("UPSERT INTO " + idx + " (id, owner, at, body) VALUES " + rows, TxMode.SERIALIZABLE_RW);
        }

        private void exec(String text, TxMode mode) {
            Result<QueryReader> r = retry.supplyResult(s -> QueryReader.readFrom(s.createQuery(text, mode)))
                    .join();
            if (!r.isSuccess()) {
                throw new IllegalStateException(text + ": " + r.getStatus());
            }
        }

        private int upsert(String kv, long id) {
            Params p = Params.of("$id", PrimitiveValue.newInt64(1000 + id), "$v", PrimitiveValue.newInt64(id));
            int[] attempts = {0};
            Status s = retry.supplyResult(session -> {
                        attempts[0]++;
                        return QueryReader.readFrom(session.createQuery(
                                "DECLARE $id AS Int64; DECLARE $v AS Int64; UPSERT INTO " + kv
                                        + " (id, v) VALUES ($id, $v)",
                                TxMode.SERIALIZABLE_RW,
                                p));
                    })
                    .join()
                    .getStatus();
            return s.isSuccess() ? attempts[0] : -attempts[0];
        }

        private int cas(String kv, long id) {
            int[] attempts = {0};
            Status s = retry.supplyStatus(session -> {
                        attempts[0]++;
                        QueryTransaction tx = session.createNewTransaction(TxMode.SERIALIZABLE_RW);
                        Params key = Params.of("$id", PrimitiveValue.newInt64(id));
                        return QueryReader.readFrom(tx.createQuery(
                                        "DECLARE $id AS Int64; SELECT v FROM " + kv + " WHERE id = $id", key))
                                .thenCompose(r -> r.isSuccess()
                                        ? write(tx, kv, id, r.getValue())
                                        : CompletableFuture.completedFuture(r.getStatus()));
                    })
                    .join();
            return s.isSuccess() ? attempts[0] : -attempts[0];
        }

        private static CompletableFuture<Status> write(QueryTransaction tx, String kv, long id, QueryReader read) {
            ResultSetReader rs = read.getResultSet(0);
            rs.next();
            long v = rs.getColumn(0).getInt64();
            Params p = Params.of(
                    "$id",
                    PrimitiveValue.newInt64(id),
                    "$old",
                    PrimitiveValue.newInt64(v),
                    "$new",
                    PrimitiveValue.newInt64(v + 1));
            return QueryReader.readFrom(tx.createQueryWithCommit(
                            "DECLARE $id AS Int64; DECLARE $old AS Int64;" + " DECLARE $new AS Int64; UPDATE " + kv
                                    + " SET v = $new WHERE id = $id AND v = $old",
                            p))
                    .thenApply(Result::getStatus);
        }

        private int indexRead(String idx, int owner) {
            Params p = Params.of("$owner", PrimitiveValue.newText("owner" + owner));
            Result<QueryReader> r = retry.supplyResult(s -> QueryReader.readFrom(s.createQuery(
                            "DECLARE $owner AS Utf8; SELECT id, at, body FROM " + idx
                                    + " VIEW by_owner WHERE owner = $owner",
                            TxMode.SNAPSHOT_RO,
                            p)))
                    .join();
            if (!r.isSuccess() || r.getValue().getResultSet(0).getRowCount() != 100) {
                return -1;
            }
            return 1;
        }
    }
}
