package dev.egress.ydb.query.store;

import dev.egress.ydb.query.value.Typed;
import dev.egress.ydb.query.value.Values;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A table: a sorted map from primary key to a chain of committed versions (newest first; a null row is a delete),
 * and per secondary index a sorted set of entries (index columns, then primary key). Readers walk the chains at
 * their snapshot without locks; only {@link Database}'s commit (one at a time) adds versions.
 */
public final class Table {

    /** One committed version of a row; {@code row == null} is a delete. */
    record Version(long version, Object[] row, Version older) {}

    private final TableSchema schema;
    private final ConcurrentSkipListMap<Object[], Version> rows = new ConcurrentSkipListMap<>(Typed.KEYS);
    private final Map<String, ConcurrentSkipListSet<Object[]>> indexes = new HashMap<>();
    private final AtomicLong liveRows = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private volatile long lastWrite;

    Table(TableSchema schema) {
        this.schema = schema;
        schema.indexes().forEach(i -> indexes.put(i.name(), new ConcurrentSkipListSet<>(Typed.KEYS)));
    }

    public TableSchema schema() {
        return schema;
    }

    public long rowCount() {
        return liveRows.get();
    }

    public long bytes() {
        return bytes.get();
    }

    long lastWrite() {
        return lastWrite;
    }

    /** The row with this key as of {@code snapshot}, or null. */
    public Object[] read(Object[] key, long snapshot) {
        return visible(rows.get(key), snapshot);
    }

    private static Object[] visible(Version v, long snapshot) {
        while (v != null && v.version() > snapshot) {
            v = v.older();
        }
        return v == null ? null : v.row();
    }

    /** The rows with keys in {@code [lo, hi]} (bounds padded with {@link Typed#MIN}/{@link Typed#MAX}). */
    public void scan(Object[] lo, Object[] hi, long snapshot, Map<Object[], Object[]> into) {
        NavigableMap<Object[], Version> range = rows.subMap(lo, true, hi, true);
        for (Map.Entry<Object[], Version> e : range.entrySet()) {
            Object[] row = visible(e.getValue(), snapshot);
            if (row != null) {
                into.put(e.getKey(), row);
            }
        }
    }

    /** Index entries in {@code [lo, hi]}; possibly stale (the caller rechecks against the row it reads). */
    public List<Object[]> indexScan(String index, Object[] lo, Object[] hi) {
        return new ArrayList<>(indexes.get(index).subSet(lo, true, hi, true));
    }

    /** Was any key in {@code [lo, hi]} (all keys when null) written by a commit after {@code snapshot}? */
    boolean changedSince(Object[] lo, Object[] hi, long snapshot) {
        if (lastWrite <= snapshot) {
            return false;
        }
        NavigableMap<Object[], Version> range = lo == null ? rows : rows.subMap(lo, true, hi, true);
        for (Version v : range.values()) {
            if (v.version() > snapshot) {
                return true;
            }
        }
        return false;
    }

    /** Applies a committed write (row null = delete); the caller holds the commit lock. */
    void apply(long version, Object[] key, Object[] row) {
        Version old = rows.get(key);
        Object[] before = old == null ? null : old.row();
        if (before == null && row == null) {
            if (old == null) {
                return; // deleting what never was leaves no trace
            }
        }
        rows.put(key, new Version(version, row, old));
        lastWrite = version;
        liveRows.addAndGet((row != null ? 1 : 0) - (before != null ? 1 : 0));
        bytes.addAndGet(sizeOf(row) - sizeOf(before));
        if (row != null) {
            for (TableSchema.IndexSchema i : schema.indexes()) {
                indexes.get(i.name()).add(schema.indexEntry(i, row));
            }
        }
    }

    /**
     * Drops versions no snapshot can see any more ({@code oldest} is the oldest open snapshot), and the index
     * entries of row images that are gone.
     */
    void collect(Object[] key, long oldest) {
        Version head = rows.get(key);
        if (head == null) {
            return;
        }
        List<Object[]> dropped = new ArrayList<>();
        Version keep = trim(head, oldest, dropped);
        if (keep.row() == null && keep.older() == null && keep.version() <= oldest) {
            rows.remove(key, head);
        } else if (keep != head) {
            rows.replace(key, head, keep);
        }
        for (TableSchema.IndexSchema i : schema.indexes()) {
            List<Object[]> live = new ArrayList<>();
            for (Version v = keep; v != null; v = v.older()) {
                if (v.row() != null) {
                    live.add(schema.indexEntry(i, v.row()));
                }
            }
            for (Object[] row : dropped) {
                Object[] entry = schema.indexEntry(i, row);
                if (live.stream().noneMatch(l -> Typed.KEYS.compare(entry, l) == 0)) {
                    indexes.get(i.name()).remove(entry);
                }
            }
        }
    }

    private static Version trim(Version head, long oldest, List<Object[]> dropped) {
        List<Version> chain = new ArrayList<>();
        for (Version v = head; v != null; v = v.older()) {
            chain.add(v);
            if (v.version() <= oldest) {
                break; // the newest version every snapshot sees; older ones are invisible
            }
        }
        for (Version v = chain.get(chain.size() - 1).older(); v != null; v = v.older()) {
            if (v.row() != null) {
                dropped.add(v.row());
            }
        }
        if (chain.get(chain.size() - 1).older() == null) {
            return head;
        }
        Version rebuilt = new Version(
                chain.get(chain.size() - 1).version(),
                chain.get(chain.size() - 1).row(),
                null);
        for (int i = chain.size() - 2; i >= 0; i--) {
            rebuilt = new Version(chain.get(i).version(), chain.get(i).row(), rebuilt);
        }
        return rebuilt;
    }

    private static long sizeOf(Object[] row) {
        if (row == null) {
            return 0;
        }
        long n = 16;
        for (Object v : row) {
            n += Values.sizeOf(v);
        }
        return n;
    }

    /** All live rows at {@code snapshot} (snapshots of the data directory, TTL sweeps). */
    public Map<Object[], Object[]> all(long snapshot) {
        Map<Object[], Object[]> out = new TreeMap<>(Typed.KEYS);
        for (Map.Entry<Object[], Version> e : rows.entrySet()) {
            Object[] row = visible(e.getValue(), snapshot);
            if (row != null) {
                out.put(e.getKey(), row);
            }
        }
        return out;
    }
}
