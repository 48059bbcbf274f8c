package dev.egress.ydb.query.exec;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.store.TableSchema;
import java.util.Map;

/** What names mean while a statement runs: the table's columns and the query's parameters. */
record Scope(TableSchema schema, Map<String, TypedValue> params, long nowMicros) {

    int column(String name) {
        if (schema == null) {
            throw YdbError.generic("Column reference '" + name + "' without FROM");
        }
        int c = schema.column(name);
        if (c < 0) {
            throw YdbError.generic("Member not found: " + name + " (table " + schema.path() + ")");
        }
        return c;
    }

    TypedValue param(String name) {
        TypedValue v = params.get(name);
        if (v == null) {
            throw YdbError.badRequest("Missing value for parameter: $" + name);
        }
        return v;
    }
}
