package dev.egress.ydb.query.exec;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.sql.Expr;
import dev.egress.ydb.query.sql.Statement;
import dev.egress.ydb.query.store.Table;
import dev.egress.ydb.query.store.TableSchema;
import dev.egress.ydb.query.store.Transaction;
import dev.egress.ydb.query.value.Kind;
import dev.egress.ydb.query.value.Typed;
import dev.egress.ydb.query.value.YqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;

/** UPSERT / REPLACE / INSERT, UPDATE and DELETE, buffered in the transaction. */
final class Writes {

    /** One input value: literals convert into the column's type, parameters must already fit it. */
    private record Input(TypedValue value, boolean literal) {}

    private Writes() {}

    static void write(Statement.Write w, Transaction tx, Table table, Scope scope) {
        TableSchema schema = table.schema();
        List<String> names = new ArrayList<>(w.columns());
        List<List<Input>> rows = new ArrayList<>();
        if (w.source() != null) {
            asTable(w.source(), scope, names, rows);
        } else {
            for (List<Expr> exprs : w.rows()) {
                rows.add(exprs.stream()
                        .map(e -> new Input(Evaluator.eval(e, null, scope), !(e instanceof Expr.Param)))
                        .toList());
            }
        }
        int[] positions = new int[names.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = schema.column(names.get(i));
            if (positions[i] < 0) {
                throw YdbError.generic("Member not found: " + names.get(i) + " (table " + schema.path() + ")");
            }
        }
        for (Statement.ColumnDef c : schema.columns()) {
            if (c.notNull() && !names.contains(c.name())) {
                throw new YdbError(
                        StatusCode.BAD_REQUEST,
                        YdbError.MISSING_NOT_NULL,
                        "Missing not null column in input: " + c.name()
                                + ". All not null columns should be initialized");
            }
        }
        for (List<Input> input : rows) {
            writeRow(w.mode(), tx, table, positions, input);
        }
    }

    private static void asTable(String param, Scope scope, List<String> names, List<List<Input>> rows) {
        TypedValue list = scope.param(param);
        YqlType t = list.type();
        if (t.kind() != Kind.LIST || t.item().kind() != Kind.STRUCT) {
            throw YdbError.generic("AS_TABLE expects List<Struct<…>>, got " + t);
        }
        names.addAll(t.item().memberNames());
        for (Object item : (List<?>) list.value()) {
            Map<?, ?> struct = (Map<?, ?>) item;
            List<Input> row = new ArrayList<>();
            for (String n : names) {
                row.add(new Input(
                        new TypedValue(struct.get(n), t.item().members().get(n)), false));
            }
            rows.add(row);
        }
    }

    private static void writeRow(
            Statement.WriteMode mode, Transaction tx, Table table, int[] positions, List<Input> in) {
        TableSchema schema = table.schema();
        Object[] values = new Object[positions.length];
        for (int i = 0; i < positions.length; i++) {
            values[i] =
                    convert(schema, positions[i], in.get(i).value(), in.get(i).literal());
        }
        Object[] fresh = new Object[schema.columns().size()];
        for (int i = 0; i < positions.length; i++) {
            fresh[positions[i]] = values[i];
        }
        Object[] key = schema.keyOf(fresh);
        Object[] existing = tx.read(table, key);
        if (mode == Statement.WriteMode.INSERT && existing != null) {
            throw new YdbError(
                    StatusCode.PRECONDITION_FAILED,
                    YdbError.CONSTRAINT_VIOLATION,
                    "Constraint violated. Table: `" + schema.path() + "`.");
        }
        Object[] row = mode == Statement.WriteMode.UPSERT && existing != null ? existing.clone() : fresh;
        for (int i = 0; i < positions.length; i++) {
            row[positions[i]] = values[i];
        }
        tx.write(table, key, row);
    }

    static Object convert(TableSchema schema, int column, TypedValue v, boolean literal) {
        Statement.ColumnDef c = schema.columns().get(column);
        if (c.notNull() && (v.value() == null || (v.type().optional() && !literal))) {
            throw new YdbError(
                    StatusCode.BAD_REQUEST,
                    YdbError.NOT_NULL_VIOLATION,
                    "Can't set optional or NULL value to not null column: " + c.name());
        }
        if (!literal
                && v.type().kind() != c.type().kind()
                && v.value() != null
                && !(v.type().kind().integer() && c.type().kind().integer())) {
            throw YdbError.generic("Type mismatch for column " + c.name() + ": expected "
                    + c.type().asRequired() + ", got " + v.type().asRequired());
        }
        return Typed.convert(v.value(), v.type(), c.type(), literal, c.name());
    }

    static void update(Statement.Update u, Transaction tx, Table table, Scope scope) {
        TableSchema schema = table.schema();
        int[] positions = new int[u.columns().size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = scope.column(u.columns().get(i));
            for (int k : schema.key()) {
                if (k == positions[i]) {
                    throw YdbError.generic(
                            "Cannot update primary key column: " + u.columns().get(i));
                }
            }
        }
        for (Object[] old : Reader.read(tx, table, null, u.where(), scope, Integer.MAX_VALUE)
                .rows()) {
            Object[] row = old.clone();
            for (int i = 0; i < positions.length; i++) {
                Expr e = u.values().get(i);
                row[positions[i]] =
                        convert(schema, positions[i], Evaluator.eval(e, old, scope), !(e instanceof Expr.Param));
            }
            tx.write(table, schema.keyOf(row), row);
        }
    }

    static void delete(Statement.Delete d, Transaction tx, Table table, Scope scope) {
        for (Object[] old : Reader.read(tx, table, null, d.where(), scope, Integer.MAX_VALUE)
                .rows()) {
            tx.write(table, table.schema().keyOf(old), null);
        }
    }
}
