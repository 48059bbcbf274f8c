package dev.egress.ydb.query.exec;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.sql.Expr;
import dev.egress.ydb.query.store.Table;
import dev.egress.ydb.query.store.TableSchema;
import dev.egress.ydb.query.store.Transaction;
import dev.egress.ydb.query.value.Typed;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the rows of a table a WHERE clause selects, through the primary key or ({@code VIEW}) a secondary index,
 * locking what it observed. Rows come in key order (index order through a view); the whole predicate is checked
 * on every row, so the ranges only narrow what is visited.
 */
final class Reader {

    /** Rows read, and whether a VIEW's index prefix was left unconstrained (YDB warns 2503 then). */
    record Rows(List<Object[]> rows, boolean indexUnsuitable) {}

    private Reader() {}

    /** Reads the matching rows; stops keeping rows after {@code limit} (a LIMIT without ORDER BY). */
    static Rows read(Transaction tx, Table table, String view, Expr where, Scope scope, int limit) {
        TableSchema schema = table.schema();
        List<Object[]> out = new ArrayList<>();
        boolean unsuitable = false;
        if (view == null) {
            KeyRanges plan = KeyRanges.of(where, schema.key(), schema.key().length, schema, scope);
            for (Object[][] range : plan.ranges()) {
                for (Object[] row :
                        tx.scan(table, range[0], range[1], plan.whole()).values()) {
                    keep(row, where, scope, out, limit);
                }
            }
        } else {
            TableSchema.IndexSchema index = schema.index(view);
            if (index == null) {
                throw YdbError.generic("Index " + view + " not found on table " + schema.path());
            }
            // An ASYNC index is kept in sync here (lag 0); YDB documents them for StaleRO reads (docs/ydb-tables.md).
            int length = index.columns().length + schema.key().length;
            KeyRanges plan = KeyRanges.of(where, index.columns(), length, schema, scope);
            unsuitable = plan.whole();
            for (Object[] row : viaIndex(tx, table, index, plan)) {
                keep(row, where, scope, out, limit);
            }
        }
        return new Rows(out, unsuitable);
    }

    private static List<Object[]> viaIndex(Transaction tx, Table table, TableSchema.IndexSchema index, KeyRanges plan) {
        TableSchema schema = table.schema();
        int n = index.columns().length;
        // The index range is locked as a whole-table lock: a row entering it later must break this reader.
        Object[] lo = fill(schema.key().length, Typed.MIN);
        tx.scan(table, lo, lo, true);
        Map<Object[], Object[]> byEntry = new TreeMap<>(Typed.KEYS);
        List<Object[]> candidates = new ArrayList<>();
        for (Object[][] range : plan.ranges()) {
            for (Object[] entry : table.indexScan(index.name(), range[0], range[1])) {
                candidates.add(Arrays.copyOfRange(entry, n, entry.length));
            }
        }
        candidates.addAll(tx.ownKeys(table));
        for (Object[] key : candidates) {
            Object[] row = tx.read(table, key);
            if (row == null) {
                continue;
            }
            Object[] entry = schema.indexEntry(index, row);
            for (Object[][] range : plan.ranges()) {
                if (Typed.KEYS.compare(entry, range[0]) >= 0 && Typed.KEYS.compare(entry, range[1]) <= 0) {
                    byEntry.put(entry, row);
                }
            }
        }
        return new ArrayList<>(byEntry.values());
    }

    private static Object[] fill(int n, Object v) {
        Object[] k = new Object[n];
        Arrays.fill(k, v);
        return k;
    }

    private static void keep(Object[] row, Expr where, Scope scope, List<Object[]> out, int limit) {
        if (out.size() < limit && (where == null || Evaluator.isTrue(Evaluator.eval(where, row, scope)))) {
            out.add(row);
        }
    }
}
