package dev.egress.ydb.query.store;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.value.Typed;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;

/**
 * A transaction's view and its buffered effects: reads see the committed state at the snapshot overlaid with the
 * transaction's own writes (read-your-writes); every read registers an optimistic lock on the key range it
 * observed, checked at commit ({@link Database#commit}). Used by one query at a time (its session's).
 */
public final class Transaction {

    /** A buffered delete. */
    static final Object[] DELETED = new Object[0];

    /** A read lock: keys in {@code [lo, hi]} of a table, or the whole table when {@code lo == null}. */
    record Lock(Table table, Object[] lo, Object[] hi) {}

    private final String id;
    private final TxMode mode;
    private final Database database;
    private final Map<Table, NavigableMap<Object[], Object[]>> writes = new LinkedHashMap<>();
    private final List<Lock> locks = new ArrayList<>();
    private long snapshot = -1;

    Transaction(String id, TxMode mode, Database database) {
        this.id = id;
        this.mode = mode;
        this.database = database;
    }

    public String id() {
        return id;
    }

    public TxMode mode() {
        return mode;
    }

    /** Takes the snapshot (at the first statement); OnlineRO/StaleRO take a fresh one per statement. */
    public void beginStatement() {
        if (snapshot < 0 || mode == TxMode.ONLINE_RO || mode == TxMode.STALE_RO) {
            database.retake(this);
            snapshot = database.lastVersion();
        }
    }

    long snapshot() {
        return snapshot;
    }

    boolean hasWrites() {
        return !writes.isEmpty();
    }

    Map<Table, NavigableMap<Object[], Object[]>> writes() {
        return writes;
    }

    List<Lock> locks() {
        return locks;
    }

    /** The row with this key as this transaction sees it, or null; locks the key. */
    public Object[] read(Table table, Object[] key) {
        locks.add(new Lock(table, key, key));
        NavigableMap<Object[], Object[]> own = writes.get(table);
        Object[] mine = own == null ? null : own.get(key);
        if (mine != null) {
            return mine == DELETED ? null : mine;
        }
        return table.read(key, snapshot);
    }

    /** The rows with keys in {@code [lo, hi]} (padded bounds) as this transaction sees them; locks the range. */
    public NavigableMap<Object[], Object[]> scan(Table table, Object[] lo, Object[] hi, boolean whole) {
        locks.add(whole ? new Lock(table, null, null) : new Lock(table, lo, hi));
        NavigableMap<Object[], Object[]> out = new TreeMap<>(Typed.KEYS);
        table.scan(lo, hi, snapshot, out);
        NavigableMap<Object[], Object[]> own = writes.get(table);
        if (own != null) {
            for (Map.Entry<Object[], Object[]> e :
                    own.subMap(lo, true, hi, true).entrySet()) {
                if (e.getValue() == DELETED) {
                    out.remove(e.getKey());
                } else {
                    out.put(e.getKey(), e.getValue());
                }
            }
        }
        return out;
    }

    /** Keys this transaction itself wrote in a table (index reads add them to the index's candidates). */
    public List<Object[]> ownKeys(Table table) {
        NavigableMap<Object[], Object[]> own = writes.get(table);
        return own == null ? List.of() : new ArrayList<>(own.keySet());
    }

    /** Buffers a write (row null = delete) until commit. */
    public void write(Table table, Object[] key, Object[] row) {
        if (mode.readOnly()) {
            throw new YdbError(
                    StatusCode.GENERIC_ERROR, 2008, "Operation 'Upsert' can't be performed in read only transaction");
        }
        database.checkWritable(table);
        writes.computeIfAbsent(table, t -> new TreeMap<>(Typed.KEYS)).put(key, row == null ? DELETED : row);
    }
}
