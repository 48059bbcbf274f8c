package dev.egress.ydb.query.durability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.ydb.common.transaction.TxMode;
import tech.ydb.core.Result;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.query.QueryClient;
import tech.ydb.query.tools.QueryReader;
import tech.ydb.query.tools.SessionRetryContext;
import tech.ydb.table.query.Params;
import tech.ydb.table.result.ResultSetReader;
import tech.ydb.table.values.PrimitiveValue;

/**
 * A node with a data directory is killed -9 while writers commit; restarted on the same directory, it holds every
 * row whose commit was acknowledged. A small compaction threshold makes the restart read a snapshot and a log.
 */
class KillNineIT {

    private static final int WRITERS = 4;

    @TempDir
    Path dataDir;

    @Test
    void everyAcknowledgedRowSurvivesAKill() throws Exception {
        Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
        try (NodeProcess node = NodeProcess.start(dataDir, "--compact-bytes", "65536")) {
            try (Client c = new Client(node.connectionString())) {
                assertThat(c.run(
                                        "CREATE TABLE acked (id Int32 NOT NULL, at Timestamp, note Utf8, PRIMARY KEY (id))",
                                        TxMode.NONE,
                                        Params.empty())
                                .getStatus()
                                .isSuccess())
                        .isTrue();
                AtomicBoolean stop = new AtomicBoolean();
                AtomicInteger next = new AtomicInteger();
                CountDownLatch enough = new CountDownLatch(1000);
                Thread[] writers = new Thread[WRITERS];
                for (int w = 0; w < WRITERS; w++) {
                    writers[w] = new Thread(() -> write(c, next, acknowledged, enough, stop));
                    writers[w].start();
                }
                assertThat(enough.await(120, TimeUnit.SECONDS)).isTrue();
                node.kill(); // while the writers are still committing
                stop.set(true);
                for (Thread w : writers) {
                    w.join(Duration.ofSeconds(60).toMillis());
                }
            }
        }
        assertThat(Files.list(dataDir).map(p -> p.getFileName().toString())).contains("tables.log", "tables.snapshot");
        try (NodeProcess again = NodeProcess.start(dataDir);
                Client c = new Client(again.connectionString())) {
            Result<QueryReader> r = c.run("SELECT id FROM acked", TxMode.SERIALIZABLE_RW, Params.empty());
            assertThat(r.getStatus().isSuccess()).as("%s", r.getStatus()).isTrue();
            Set<Integer> stored = new HashSet<>();
            ResultSetReader rs = r.getValue().getResultSet(0);
            while (rs.next()) {
                stored.add(rs.getColumn(0).getInt32());
            }
            assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(1000);
            assertThat(stored).containsAll(acknowledged);
        }
    }

    private static void write(
            Client c, AtomicInteger next, Set<Integer> acknowledged, CountDownLatch enough, AtomicBoolean stop) {
        while (!stop.get()) {
            int id = next.incrementAndGet();
            Params p = Params.of("$id", PrimitiveValue.newInt32(id), "$note", PrimitiveValue.newText("row " + id));
            Result<QueryReader> r = c.once(
                    "DECLARE $id AS Int32; DECLARE $note AS Utf8;"
                            + " UPSERT INTO acked (id, at, note) VALUES ($id, CurrentUtcTimestamp(), $note)",
                    p);
            if (r.getStatus().isSuccess()) {
                acknowledged.add(id);
                enough.countDown();
            } else if (stop.get()) {
                return;
            }
        }
    }

    /** An SDK client of the child node. */
    private static final class Client implements AutoCloseable {
        private final GrpcTransport transport;
        private final QueryClient client;
        private final SessionRetryContext retry;

        Client(String connectionString) {
            transport = GrpcTransport.forConnectionString(connectionString).build();
            client = QueryClient.newClient(transport).build();
            retry = SessionRetryContext.create(client).maxRetries(2).build();
        }

        Result<QueryReader> run(String text, TxMode mode, Params p) {
            return retry.supplyResult(s -> QueryReader.readFrom(s.createQuery(text, mode, p)))
                    .join();
        }

        /** One attempt, no retry: its success is an acknowledgement. */
        Result<QueryReader> once(String text, Params p) {
            return client.createSession(Duration.ofSeconds(5))
                    .thenCompose(s -> {
                        if (!s.isSuccess()) {
                            return CompletableFuture.completedFuture(Result.<QueryReader>fail(s.getStatus()));
                        }
                        return QueryReader.readFrom(s.getValue().createQuery(text, TxMode.SERIALIZABLE_RW, p))
                                .whenComplete((r, e) -> s.getValue().close());
                    })
                    .join();
        }

        @Override
        public void close() {
            client.close();
            transport.close();
        }
    }
}
