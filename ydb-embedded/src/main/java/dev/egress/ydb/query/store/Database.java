package dev.egress.ydb.query.store;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.value.Typed;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;

/**
 * The tables of one database and its commit order. Every commit gets the next version; readers see the versions up
 * to their snapshot. Commits (and DDL) run one at a time under {@link #exclusive}; with a data directory each is
 * appended to the log before it becomes visible, and acknowledged only once the log is fsynced
 * ({@link #awaitDurable}). Old versions are collected when no open snapshot needs them.
 */
public final class Database implements AutoCloseable {

    private record Garbage(Table table, Object[] key, long version) {}

    private final String root;
    private final Limits limits;
    private final Wal wal;
    private final TableStats stats;
    private final Map<String, Table> tables = new ConcurrentHashMap<>();
    private final Map<Transaction, Long> open = new ConcurrentHashMap<>();
    private final Queue<Garbage> garbage = new ConcurrentLinkedQueue<>();
    private final ReentrantLock commitLock = new ReentrantLock();
    private volatile long lastVersion;

    /**
     * @param root   the database path tables resolve against, e.g. {@code /local}
     * @param limits the bounds
     * @param wal    the log of a data directory, or null in memory
     */
    public Database(String root, Limits limits, Wal wal, TableStats stats) {
        this.root = root;
        this.limits = limits;
        this.wal = wal;
        this.stats = stats;
    }

    /** Replays the data directory (snapshot, then log) into this database. */
    public void recover() {
        if (wal != null) {
            lastVersion = wal.recover(new Recovery(this));
        }
    }

    public long lastVersion() {
        return lastVersion;
    }

    void setLastVersion(long version) {
        lastVersion = version;
    }

    /** A table's full path: relative names resolve against the database. */
    public String path(String name) {
        return name.startsWith("/") ? name : root + "/" + name;
    }

    /** The table, or SCHEME_ERROR as YDB answers for a missing one. */
    public Table table(String name) {
        String path = path(name);
        Table t = tables.get(path);
        if (t == null) {
            throw YdbError.noTable(path);
        }
        return t;
    }

    public Collection<Table> tables() {
        return tables.values();
    }

    /** Runs {@code work} with no commit in between (single-shot queries, DDL, commits). */
    public <T> T exclusive(Supplier<T> work) {
        commitLock.lock();
        try {
            return work.get();
        } finally {
            commitLock.unlock();
        }
    }

    public Transaction begin(TxMode mode) {
        return new Transaction(UUID.randomUUID().toString(), mode, this);
    }

    /**
     * Registers (or moves) a transaction's snapshot so that collection keeps what it may read; registered before
     * the snapshot is read, so the registered version is never newer than the snapshot.
     */
    void retake(Transaction tx) {
        open.put(tx, lastVersion);
    }

    /** Forgets a finished transaction's snapshot. */
    public void finish(Transaction tx) {
        open.remove(tx);
    }

    void checkWritable(Table table) {
        if (tables.get(table.schema().path()) != table) {
            throw YdbError.noTable(table.schema().path());
        }
    }

    /**
     * Commits a transaction: ABORTED when a lock it took (or a key it wrote) was changed by a commit after its
     * snapshot, else its writes become the next version. Returns the log position to await, or -1.
     */
    public long commit(Transaction tx) {
        return exclusive(() -> {
            try {
                if (!tx.hasWrites()) {
                    return -1L;
                }
                validate(tx);
                long newRows = 0;
                long count = 0;
                for (Map.Entry<Table, NavigableMap<Object[], Object[]>> e :
                        tx.writes().entrySet()) {
                    count += e.getValue().size();
                    for (Map.Entry<Object[], Object[]> w : e.getValue().entrySet()) {
                        boolean existed = e.getKey().read(w.getKey(), Long.MAX_VALUE) != null;
                        newRows += (w.getValue() != Transaction.DELETED ? 1 : 0) - (existed ? 1 : 0);
                    }
                }
                checkLimits(newRows, count);
                long version = lastVersion + 1;
                long position = wal == null ? -1 : wal.appendCommit(version, tx.writes());
                apply(version, tx.writes());
                stats.committed(count);
                return position;
            } finally {
                finish(tx);
            }
        });
    }

    private void validate(Transaction tx) {
        long snapshot = tx.snapshot();
        for (Transaction.Lock lock : tx.locks()) {
            if (lock.table().changedSince(lock.lo(), lock.hi(), snapshot)) {
                throw aborted(lock.table());
            }
        }
        for (Map.Entry<Table, NavigableMap<Object[], Object[]>> e : tx.writes().entrySet()) {
            checkWritable(e.getKey());
            for (Object[] key : e.getValue().keySet()) { // first committer wins on blind writes too
                if (e.getKey().changedSince(key, key, snapshot)) {
                    throw aborted(e.getKey());
                }
            }
        }
    }

    private YdbError aborted(Table table) {
        stats.aborted();
        return new YdbError(
                StatusCode.ABORTED,
                YdbError.LOCKS_INVALIDATED,
                "Transaction locks invalidated. Table: `" + table.schema().path() + "`");
    }

    private void checkLimits(long newRows, long count) {
        if (count > limits.maxTxWrites()) {
            throw new YdbError(
                    StatusCode.PRECONDITION_FAILED,
                    "A transaction may write at most " + limits.maxTxWrites()
                            + " rows on this node (limit maxTxWrites); it wrote " + count);
        }
        long rows = tables.values().stream().mapToLong(Table::rowCount).sum();
        if (newRows > 0 && rows + newRows > limits.maxRows()) {
            throw new YdbError(
                    StatusCode.OVERLOADED,
                    "The node holds at most " + limits.maxRows() + " rows (limit maxRows); " + rows + " are stored");
        }
        long bytes = tables.values().stream().mapToLong(Table::bytes).sum();
        if (newRows >= 0 && bytes > limits.maxBytes()) {
            throw new YdbError(
                    StatusCode.OVERLOADED,
                    "The node holds at most " + limits.maxBytes() + " bytes of rows (limit maxBytes); " + bytes
                            + " are stored");
        }
    }

    /** Makes writes the given version (recovery and commits; the caller holds the lock). */
    void apply(long version, Map<Table, NavigableMap<Object[], Object[]>> writes) {
        for (Map.Entry<Table, NavigableMap<Object[], Object[]>> e : writes.entrySet()) {
            for (Map.Entry<Object[], Object[]> w : e.getValue().entrySet()) {
                Object[] row = w.getValue() == Transaction.DELETED ? null : w.getValue();
                e.getKey().apply(version, w.getKey(), row);
                garbage.add(new Garbage(e.getKey(), w.getKey(), version));
            }
        }
        lastVersion = version;
        collect();
    }

    private void collect() {
        long oldest = open.values().stream().mapToLong(Long::longValue).min().orElse(lastVersion);
        while (true) {
            Garbage g = garbage.peek();
            if (g == null || g.version() > oldest) {
                return;
            }
            garbage.poll();
            g.table().collect(g.key(), oldest);
        }
    }

    /** CREATE TABLE; false when it exists and {@code ifNotExists}. */
    public long create(TableSchema schema, boolean ifNotExists) {
        return exclusive(() -> {
            if (tables.containsKey(schema.path())) {
                if (ifNotExists) {
                    return -1L;
                }
                throw new YdbError(StatusCode.GENERIC_ERROR, 2003, "Table " + schema.path() + " already exists");
            }
            long version = lastVersion + 1;
            long position = wal == null ? -1 : wal.appendDdl(version, schema.ddl());
            tables.put(schema.path(), new Table(schema));
            lastVersion = version;
            return position;
        });
    }

    /** DROP TABLE. */
    public long drop(String name, boolean ifExists) {
        String path = path(name);
        return exclusive(() -> {
            if (!tables.containsKey(path)) {
                if (ifExists) {
                    return -1L;
                }
                throw new YdbError(StatusCode.SCHEME_ERROR, YdbError.SCHEME_ERROR, "Path does not exist: " + path);
            }
            long version = lastVersion + 1;
            long position = wal == null ? -1 : wal.appendDrop(version, path);
            tables.remove(path);
            lastVersion = version;
            return position;
        });
    }

    /** Adds a table during recovery. */
    void restore(TableSchema schema) {
        tables.put(schema.path(), new Table(schema));
    }

    void restoreDrop(String path) {
        tables.remove(path);
    }

    /** Waits until the log holds everything up to {@code position} on disk (no-op in memory or for -1). */
    public void awaitDurable(long position) {
        if (wal != null) {
            wal.awaitDurable(position < 0 ? wal.written() : position);
        }
    }

    /** Writes a compacted snapshot and starts a new log when the log has grown past its threshold. */
    public void maybeCompact() {
        if (wal != null && wal.wantsCompaction()) {
            exclusive(() -> {
                wal.compact(lastVersion, new ArrayList<>(tables.values()));
                return null;
            });
        }
    }

    /** Rows expired by TTL at {@code nowMicros}, deleted as one ordinary commit per table. */
    public int sweepTtl(long nowMicros) {
        int deleted = 0;
        for (Table t : List.copyOf(tables.values())) {
            TableSchema.Ttl ttl = t.schema().ttl();
            if (ttl == null) {
                continue;
            }
            Transaction tx = begin(TxMode.SERIALIZABLE_RW);
            long position = exclusive(() -> {
                tx.beginStatement();
                Object[] lo = padded(t.schema().key().length, Typed.MIN);
                Object[] hi = padded(t.schema().key().length, Typed.MAX);
                for (Map.Entry<Object[], Object[]> e : tx.scan(t, lo, hi, true).entrySet()) {
                    Object at = e.getValue()[ttl.column()];
                    if (at instanceof Long v && expiresBefore(v, t.schema(), ttl, nowMicros)) {
                        tx.write(t, e.getKey(), null);
                    }
                }
                return commit(tx);
            });
            deleted += (int) tx.writes().values().stream().mapToLong(Map::size).sum();
            awaitDurable(position);
        }
        return deleted;
    }

    private static boolean expiresBefore(long value, TableSchema schema, TableSchema.Ttl ttl, long now) {
        long micros = switch (schema.type(ttl.column()).kind()) {
            case DATE -> value * 86_400_000_000L;
            case DATETIME -> value * 1_000_000L;
            default -> value;
        };
        return micros + ttl.intervalMicros() <= now;
    }

    static Object[] padded(int n, Object fill) {
        Object[] k = new Object[n];
        Arrays.fill(k, fill);
        return k;
    }

    public TableStats stats() {
        return stats;
    }

    public Limits limits() {
        return limits;
    }

    public long walBytes() {
        return wal == null ? 0 : wal.size();
    }

    @Override
    public void close() {
        if (wal != null) {
            wal.close();
        }
    }
}
