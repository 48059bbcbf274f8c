package dev.egress.ydb.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.ydb.coordination.EmbeddedCoordinationNode;
import dev.egress.ydb.coordination.NodeAccess;
import dev.egress.ydb.query.store.Limits;
import org.junit.jupiter.api.Test;
import tech.ydb.common.transaction.TxMode;
import tech.ydb.core.Result;
import tech.ydb.core.StatusCode;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.query.QueryClient;
import tech.ydb.query.tools.QueryReader;
import tech.ydb.query.tools.SessionRetryContext;

/** The node's bounds (rows stored, rows per result, writes per transaction) answer with errors naming them. */
class LimitsIT {

    @Test
    void eachLimitIsAClearError() {
        Limits small = new Limits(5, 1L << 20, 3, 4);
        try (EmbeddedCoordinationNode node = EmbeddedCoordinationNode.start(
                        EmbeddedCoordinationNode.DEFAULT_HOST,
                        0,
                        EmbeddedCoordinationNode.DEFAULT_DATABASE,
                        NodeAccess.ANONYMOUS,
                        TableOptions.IN_MEMORY.withLimits(small));
                GrpcTransport transport = GrpcTransport.forConnectionString(node.connectionString())
                        .build();
                QueryClient client = QueryClient.newClient(transport).build()) {
            SessionRetryContext retry =
                    SessionRetryContext.create(client).maxRetries(0).build();
            assertThat(run(retry, "CREATE TABLE l (id Int32 NOT NULL, PRIMARY KEY (id))", TxMode.NONE)
                            .isSuccess())
                    .isTrue();
            assertThat(run(retry, "UPSERT INTO l (id) VALUES (1), (2), (3), (4)", TxMode.SERIALIZABLE_RW)
                            .isSuccess())
                    .isTrue();

            Result<QueryReader> tooMany = run(retry, "SELECT id FROM l", TxMode.SERIALIZABLE_RW);
            assertThat(tooMany.getStatus().getCode()).isEqualTo(StatusCode.BAD_REQUEST);
            assertThat(tooMany.getStatus().toString()).contains("maxResultRows");
            assertThat(run(retry, "SELECT id FROM l LIMIT 3", TxMode.SERIALIZABLE_RW)
                            .isSuccess())
                    .isTrue();

            Result<QueryReader> bigTx =
                    run(retry, "UPSERT INTO l (id) VALUES (5), (6), (7), (8), (9)", TxMode.SERIALIZABLE_RW);
            assertThat(bigTx.getStatus().getCode()).isEqualTo(StatusCode.PRECONDITION_FAILED);
            assertThat(bigTx.getStatus().toString()).contains("maxTxWrites");

            assertThat(run(retry, "UPSERT INTO l (id) VALUES (5)", TxMode.SERIALIZABLE_RW)
                            .isSuccess())
                    .isTrue();
            Result<QueryReader> full = run(retry, "UPSERT INTO l (id) VALUES (6)", TxMode.SERIALIZABLE_RW);
            assertThat(full.getStatus().getCode()).isEqualTo(StatusCode.OVERLOADED);
            assertThat(full.getStatus().toString()).contains("maxRows");
            assertThat(run(retry, "UPSERT INTO l (id) VALUES (5)", TxMode.SERIALIZABLE_RW)
                            .isSuccess())
                    .as("rewriting an existing row adds none")
                    .isTrue();
        }
    }

    private static Result<QueryReader> run(SessionRetryContext retry, String text, TxMode mode) {
        return retry.supplyResult(s -> QueryReader.readFrom(s.createQuery(text, mode)))
                .join();
    }
}
