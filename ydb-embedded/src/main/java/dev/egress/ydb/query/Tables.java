package dev.egress.ydb.query;

import dev.egress.ydb.query.server.QueryGrpcService;
import dev.egress.ydb.query.store.Database;
import dev.egress.ydb.query.store.Table;
import dev.egress.ydb.query.store.TableStats;
import dev.egress.ydb.query.store.Wal;
import io.grpc.BindableService;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table side of the embedded node: the database (in memory or in a data directory), the Query service that
 * serves it, and the TTL sweeper.
 */
public final class Tables implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Tables.class);

    private final Database db;
    private final QueryGrpcService service;
    private final ScheduledExecutorService sweeper;

    private Tables(Database db, TableOptions options) {
        this.db = db;
        this.service = new QueryGrpcService(db);
        this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tables-ttl");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(1, options.ttlPeriod().toMillis());
        sweeper.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
    }

    /** Opens the tables of {@code database}, replaying the data directory if there is one. */
    public static Tables open(String database, TableOptions options) {
        TableStats stats = new TableStats();
        Wal wal = options.dataDir() == null ? null : new Wal(options.dataDir(), options.compactBytes(), stats);
        Database db = new Database(database, options.limits(), wal, stats);
        db.recover();
        if (wal != null) {
            log.info(
                    "Tables kept in {} ({} tables, version {})",
                    options.dataDir(),
                    db.tables().size(),
                    db.lastVersion());
        }
        return new Tables(db, options);
    }

    public BindableService service() {
        return service;
    }

    public Database database() {
        return db;
    }

    private void sweep() {
        try {
            Instant now = Instant.now();
            int deleted = db.sweepTtl(now.getEpochSecond() * 1_000_000L + now.getNano() / 1000);
            if (deleted > 0) {
                log.debug("TTL deleted {} rows", deleted);
            }
        } catch (RuntimeException e) {
            log.warn("TTL sweep failed (retried next period): {}", e.toString());
        }
    }

    /** The node's table metrics in Prometheus' text format. */
    public String metrics() {
        TableStats s = db.stats();
        StringBuilder b = new StringBuilder();
        gauge(b, "ydb_embedded_query_sessions", "Open Query-service sessions", service.sessionCount());
        counter(b, "ydb_embedded_tx_commits_total", "Committed transactions that wrote", s.commits());
        counter(b, "ydb_embedded_tx_aborts_total", "Transactions aborted by lock conflicts (ABORTED)", s.aborts());
        counter(b, "ydb_embedded_tx_rollbacks_total", "Transactions rolled back", s.rollbacks());
        counter(b, "ydb_embedded_query_errors_total", "Queries failed with another error", s.failures());
        counter(b, "ydb_embedded_rows_written_total", "Rows written by commits", s.rowsWritten());
        b.append("# HELP ydb_embedded_table_rows Live rows per table\n# TYPE ydb_embedded_table_rows gauge\n");
        for (Table t : db.tables()) {
            b.append("ydb_embedded_table_rows{table=\"")
                    .append(t.schema().path())
                    .append("\"} ")
                    .append(t.rowCount())
                    .append('\n');
        }
        b.append(
                "# HELP ydb_embedded_table_bytes Approximate bytes per table\n# TYPE ydb_embedded_table_bytes gauge\n");
        for (Table t : db.tables()) {
            b.append("ydb_embedded_table_bytes{table=\"")
                    .append(t.schema().path())
                    .append("\"} ")
                    .append(t.bytes())
                    .append('\n');
        }
        gauge(b, "ydb_embedded_log_bytes", "Bytes in the data directory's log", db.walBytes());
        counter(b, "ydb_embedded_fsync_total", "fsyncs of the log", s.fsyncs());
        gauge(b, "ydb_embedded_fsync_seconds_sum", "Time spent in fsync", s.fsyncNanos() / 1e9);
        gauge(b, "ydb_embedded_fsync_seconds_max", "Longest fsync", s.fsyncMaxNanos() / 1e9);
        return b.toString();
    }

    private static void counter(StringBuilder b, String name, String help, long v) {
        b.append("# HELP ")
                .append(name)
                .append(' ')
                .append(help)
                .append("\n# TYPE ")
                .append(name)
                .append(" counter\n")
                .append(name)
                .append(' ')
                .append(v)
                .append('\n');
    }

    private static void gauge(StringBuilder b, String name, String help, double v) {
        b.append("# HELP ")
                .append(name)
                .append(' ')
                .append(help)
                .append("\n# TYPE ")
                .append(name)
                .append(" gauge\n")
                .append(name)
                .append(' ')
                .append(v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.6f", v))
                .append('\n');
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        db.close();
    }
}
