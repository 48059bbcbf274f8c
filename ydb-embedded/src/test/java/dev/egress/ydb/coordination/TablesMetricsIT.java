package dev.egress.ydb.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.ydb.query.TableOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.ydb.common.transaction.TxMode;
import tech.ydb.core.Result;
import tech.ydb.core.StatusCode;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.query.QueryClient;
import tech.ydb.query.QuerySession;
import tech.ydb.query.QueryTransaction;
import tech.ydb.query.tools.QueryReader;

/** The node's /metrics and /healthz: sessions, commits, aborts, rows and bytes per table, log size and fsyncs. */
class TablesMetricsIT {

    @TempDir
    Path dataDir;

    @Test
    void metricsCountWhatHappened() throws Exception {
        try (EmbeddedCoordinationNode node = EmbeddedCoordinationNode.start(
                        EmbeddedCoordinationNode.DEFAULT_HOST,
                        0,
                        EmbeddedCoordinationNode.DEFAULT_DATABASE,
                        NodeAccess.ANONYMOUS,
                        TableOptions.IN_MEMORY.withDataDir(dataDir));
                MetricsEndpoint http = MetricsEndpoint.start(EmbeddedCoordinationNode.DEFAULT_HOST, 0, node);
                GrpcTransport transport = GrpcTransport.forConnectionString(node.connectionString())
                        .build();
                QueryClient client = QueryClient.newClient(transport).build();
                QuerySession s1 =
                        client.createSession(Duration.ofSeconds(10)).join().getValue();
                QuerySession s2 =
                        client.createSession(Duration.ofSeconds(10)).join().getValue()) {
            run(s1, "CREATE TABLE m (id Int32 NOT NULL, v Utf8, PRIMARY KEY (id))", TxMode.NONE);
            run(s1, "UPSERT INTO m (id, v) VALUES (1, 'a'), (2, 'b')", TxMode.SERIALIZABLE_RW);
            QueryTransaction tx = s1.createNewTransaction(TxMode.SERIALIZABLE_RW);
            assertThat(QueryReader.readFrom(tx.createQuery("SELECT v FROM m WHERE id = 1"))
                            .join()
                            .isSuccess())
                    .isTrue();
            run(s2, "UPSERT INTO m (id, v) VALUES (1, 'c')", TxMode.SERIALIZABLE_RW);
            Result<QueryReader> aborted = QueryReader.readFrom(
                            tx.createQueryWithCommit("UPSERT INTO m (id, v) VALUES (3, 'd')"))
                    .join();
            assertThat(aborted.getStatus().getCode()).isEqualTo(StatusCode.ABORTED);

            String metrics = get(http, "/metrics");
            assertThat(metrics)
                    .contains("ydb_embedded_query_sessions 2\n")
                    .contains("ydb_embedded_tx_commits_total 2\n")
                    .contains("ydb_embedded_tx_aborts_total 1\n")
                    .contains("ydb_embedded_table_rows{table=\"/local/m\"} 2\n")
                    .containsPattern("ydb_embedded_table_bytes\\{table=\"/local/m\"} [1-9]")
                    .containsPattern("ydb_embedded_log_bytes [1-9]")
                    .containsPattern("ydb_embedded_fsync_total [1-9]");
            assertThat(get(http, "/healthz")).isEqualTo("ok\n");
        }
    }

    private static void run(QuerySession s, String text, TxMode mode) {
        Result<QueryReader> r = QueryReader.readFrom(s.createQuery(text, mode)).join();
        assertThat(r.isSuccess()).as("%s: %s", text, r.getStatus()).isTrue();
    }

    private static String get(MetricsEndpoint http, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }
}
