package dev.egress.ydb.query.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import tech.ydb.common.transaction.TxMode;
import tech.ydb.core.Result;
import tech.ydb.core.Status;
import tech.ydb.core.StatusCode;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.query.QueryClient;
import tech.ydb.query.tools.QueryReader;
import tech.ydb.query.tools.SessionRetryContext;
import tech.ydb.table.query.Params;
import tech.ydb.table.result.ResultSetReader;

/**
 * What the Query-service contract suites share: one SDK transport, query client and retry context per test, a
 * table-name prefix unique to the test (so suites run side by side, on real YDB too), and the helpers every test
 * uses. Tests reach the tables only through the official SDK ({@code ydb-sdk-query}).
 */
public abstract class QueryContractFixture {

    protected static final Duration PATIENCE = Duration.ofSeconds(30);

    protected GrpcTransport transport;
    protected QueryClient client;
    protected SessionRetryContext retry;
    protected String prefix;
    private final List<String> created = new ArrayList<>();

    /** The SDK connection string of the server under test. */
    protected abstract String connectionString();

    /** Does the server sweep TTL within seconds (the embedded node) rather than within ≥ 15 min (YDB)? */
    protected boolean fastTtl() {
        return false;
    }

    /** Is the server the embedded node (for the constructs it refuses, which YDB runs)? */
    protected boolean embedded() {
        return false;
    }

    @BeforeEach
    void connect() {
        transport = GrpcTransport.forConnectionString(connectionString()).build();
        client = QueryClient.newClient(transport).sessionPoolMaxSize(10).build();
        retry = SessionRetryContext.create(client).build();
        prefix = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "_";
    }

    @AfterEach
    void disconnect() {
        for (String table : created) {
            query("DROP TABLE " + table, TxMode.NONE);
        }
        client.close();
        transport.close();
    }

    /** Creates a table named {@code prefix + name} from a DDL whose table name is written {@code $T}. */
    protected String table(String name, String ddl) {
        String table = prefix + name;
        Result<QueryReader> r = query(ddl.replace("$T", table), TxMode.NONE);
        assertThat(r.getStatus().isSuccess()).as("%s", r.getStatus()).isTrue();
        created.add(table);
        return table;
    }

    /** Runs a query through the retry context (retried on what the SDK retries). */
    protected Result<QueryReader> query(String text, TxMode mode, Params params) {
        return get(retry.supplyResult(s -> QueryReader.readFrom(s.createQuery(text, mode, params))));
    }

    protected Result<QueryReader> query(String text, TxMode mode) {
        return query(text, mode, Params.empty());
    }

    /** Runs a query that must succeed and returns its reader. */
    protected QueryReader ok(String text, Params params) {
        Result<QueryReader> r = query(text, TxMode.SERIALIZABLE_RW, params);
        assertThat(r.getStatus().isSuccess()).as("%s: %s", text, r.getStatus()).isTrue();
        return r.getValue();
    }

    protected QueryReader ok(String text) {
        return ok(text, Params.empty());
    }

    /** The status code of a query expected to fail. */
    protected StatusCode fails(String text, TxMode mode, Params params) {
        Result<QueryReader> r = query(text, mode, params);
        assertThat(r.getStatus().isSuccess()).as("%s should fail", text).isFalse();
        return r.getStatus().getCode();
    }

    protected StatusCode fails(String text) {
        return fails(text, TxMode.SERIALIZABLE_RW, Params.empty());
    }

    /** The first column of every row of the only result set, as longs (Int32/Int64/Uint* read by type). */
    protected static List<Long> ids(QueryReader reader) {
        ResultSetReader rs = reader.getResultSet(0);
        List<Long> out = new ArrayList<>();
        while (rs.next()) {
            var v = rs.getColumn(0);
            out.add(
                    switch (v.getType().toPb().getOptionalType().hasItem()
                            ? v.getType().toPb().getOptionalType().getItem().getTypeId()
                            : v.getType().toPb().getTypeId()) {
                        case INT32 -> (long) v.getInt32();
                        case INT64 -> v.getInt64();
                        case UINT64 -> v.getUint64();
                        case UINT32 -> v.getUint32();
                        default -> throw new AssertionError("not an integer column: " + v.getType());
                    });
        }
        return out;
    }

    protected static <T> T get(CompletableFuture<T> future) {
        try {
            return future.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    protected static void assertOk(Status status) {
        assertThat(status.isSuccess()).as("%s", status).isTrue();
    }
}
