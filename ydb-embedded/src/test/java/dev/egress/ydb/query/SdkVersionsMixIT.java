package dev.egress.ydb.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tech.ydb.common.transaction.TxMode;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.SemaphoreLease;
import tech.ydb.core.Result;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.query.QueryClient;
import tech.ydb.query.tools.QueryReader;
import tech.ydb.query.tools.SessionRetryContext;

/**
 * The coordination client (ydb-sdk-coordination 2.2.10) and the query client (ydb-sdk-query 2.3.31) in one JVM, on
 * one GrpcTransport (and so on ydb-sdk-core 2.3.31, which Maven resolves for both): a coordination session holds a
 * semaphore while query sessions write and read tables.
 */
class SdkVersionsMixIT {

    @Test
    void aCoordinationSessionAndQuerySessionsShareOneTransport() throws Exception {
        try (EmbeddedCoordinationNode node = EmbeddedCoordinationNode.start(0);
                GrpcTransport transport = GrpcTransport.forConnectionString(node.connectionString())
                        .build();
                QueryClient queries = QueryClient.newClient(transport).build()) {
            CoordinationClient coordination = CoordinationClient.newClient(transport);
            assertThat(coordination.createNode("mix").get(30, TimeUnit.SECONDS).isSuccess())
                    .isTrue();
            try (CoordinationSession session = coordination.createSession("mix")) {
                assertThat(session.connect().get(30, TimeUnit.SECONDS).isSuccess())
                        .isTrue();
                assertThat(session.createSemaphore("lock", 1)
                                .get(30, TimeUnit.SECONDS)
                                .isSuccess())
                        .isTrue();
                Result<SemaphoreLease> lease = session.acquireSemaphore("lock", 1, Duration.ofSeconds(10))
                        .get(30, TimeUnit.SECONDS);
                assertThat(lease.isSuccess()).isTrue();

                SessionRetryContext retry = SessionRetryContext.create(queries).build();
                for (String q : new String[] {
                    "CREATE TABLE mix (id Int32 NOT NULL, PRIMARY KEY (id))", "UPSERT INTO mix (id) VALUES (1), (2)",
                }) {
                    TxMode mode = q.startsWith("CREATE") ? TxMode.NONE : TxMode.SERIALIZABLE_RW;
                    assertThat(retry.supplyResult(s -> QueryReader.readFrom(s.createQuery(q, mode)))
                                    .get(30, TimeUnit.SECONDS)
                                    .isSuccess())
                            .isTrue();
                }
                Result<QueryReader> read = retry.supplyResult(
                                s -> QueryReader.readFrom(s.createQuery("SELECT id FROM mix", TxMode.SNAPSHOT_RO)))
                        .get(30, TimeUnit.SECONDS);
                assertThat(read.getValue().getResultSet(0).getRowCount()).isEqualTo(2);
                assertThat(session.getState()).isEqualTo(CoordinationSession.State.CONNECTED);
                lease.getValue().release().get(30, TimeUnit.SECONDS);
            }
        }
    }
}
