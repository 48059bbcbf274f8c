package dev.egress.ydb.query.store;

import dev.egress.ydb.query.sql.Parser;
import dev.egress.ydb.query.sql.Statement;
import dev.egress.ydb.query.value.Typed;
import dev.egress.ydb.query.value.Values;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import tech.ydb.proto.ValueProtos;

/** Applies the data directory's records to a database being started. */
final class Recovery {

    private final Database db;

    Recovery(Database db) {
        this.db = db;
    }

    void replay(ValueProtos.Value record) {
        String kind = record.getItems(0).getTextValue();
        long version = record.getItems(1).getUint64Value();
        switch (kind) {
            case "C" -> {
                Statement.CreateTable create = (Statement.CreateTable)
                        Parser.parse(record.getItems(2).getTextValue()).get(0);
                db.restore(TableSchema.of(create.table(), create));
            }
            case "D" -> db.restoreDrop(record.getItems(2).getTextValue());
            case "W" -> writes(record, version);
            case "V" -> {} // end of a snapshot
            default -> throw new IllegalStateException("unknown record " + kind);
        }
        db.setLastVersion(Math.max(db.lastVersion(), version));
    }

    private void writes(ValueProtos.Value record, long version) {
        Map<Table, NavigableMap<Object[], Object[]>> writes = new LinkedHashMap<>();
        for (int i = 2; i < record.getItemsCount(); i++) {
            ValueProtos.Value w = record.getItems(i);
            Table t = db.table(w.getItems(0).getTextValue());
            TableSchema s = t.schema();
            Object[] key = new Object[s.key().length];
            for (int k = 0; k < key.length; k++) {
                key[k] = Values.fromProto(w.getItems(1).getItems(k), s.type(s.key()[k]));
            }
            ValueProtos.Value r = w.getItems(2);
            Object[] row = Transaction.DELETED;
            if (r.getValueCase() != ValueProtos.Value.ValueCase.NULL_FLAG_VALUE) {
                row = new Object[s.columns().size()];
                for (int c = 0; c < row.length; c++) {
                    row[c] = Values.fromProto(r.getItems(c), s.type(c));
                }
            }
            writes.computeIfAbsent(t, x -> new TreeMap<>(Typed.KEYS)).put(key, row);
        }
        db.apply(version, writes);
    }
}
