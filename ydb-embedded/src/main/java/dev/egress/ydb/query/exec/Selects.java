package dev.egress.ydb.query.exec;

import com.google.protobuf.ByteString;
import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.sql.Expr;
import dev.egress.ydb.query.sql.Statement;
import dev.egress.ydb.query.store.Table;
import dev.egress.ydb.query.store.TableSchema;
import dev.egress.ydb.query.store.Transaction;
import dev.egress.ydb.query.value.Typed;
import dev.egress.ydb.query.value.Values;
import dev.egress.ydb.query.value.YqlType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import tech.ydb.proto.ValueProtos;

/** SELECT: reads, orders, limits and encodes one result set in YDB's wire types. */
final class Selects {

    /** A result column. */
    private record Out(String name, Expr expr, YqlType type) {}

    private Selects() {}

    /** The result set, and whether a VIEW's predicate did not suit its index (warning 2503). */
    static ValueProtos.ResultSet run(
            Statement.Select s, Transaction tx, Table table, Scope scope, int maxRows, boolean[] unsuitable) {
        List<Object[]> rows;
        if (table == null) {
            rows = new ArrayList<>();
            if (s.items().isEmpty()) {
                throw YdbError.generic("SELECT * without FROM");
            }
            if (s.where() == null || Evaluator.isTrue(Evaluator.eval(s.where(), null, scope))) {
                rows.add(null);
            }
        } else {
            long offset = count(s.offset(), scope, 0);
            long limit = count(s.limit(), scope, Long.MAX_VALUE);
            int stopAt = s.orderBy().isEmpty() && limit < Integer.MAX_VALUE - offset
                    ? (int) (offset + limit)
                    : Integer.MAX_VALUE;
            Reader.Rows read = Reader.read(tx, table, s.view(), s.where(), scope, stopAt);
            unsuitable[0] = read.indexUnsuitable();
            rows = new ArrayList<>(read.rows());
            if (!s.orderBy().isEmpty()) {
                rows.sort(order(s.orderBy(), scope));
            }
            rows = rows.subList((int) Math.min(offset, rows.size()), (int) Math.min(rows.size(), offset + limit));
        }
        if (rows.size() > maxRows) {
            throw YdbError.badRequest("The result has " + rows.size() + " rows, more than " + maxRows
                    + " (limit maxResultRows of the embedded node); narrow it with WHERE or LIMIT");
        }
        return encode(columns(s, table == null ? null : table.schema(), scope), rows, scope);
    }

    private static long count(Expr e, Scope scope, long absent) {
        if (e == null) {
            return absent;
        }
        TypedValue v = Evaluator.eval(e, null, scope);
        if (!(v.value() instanceof Long n) || n < 0) {
            throw YdbError.generic("LIMIT/OFFSET expects a non-negative integer, got " + v.type());
        }
        return n;
    }

    private static Comparator<Object[]> order(List<Statement.Order> orderBy, Scope scope) {
        return (a, b) -> {
            for (Statement.Order o : orderBy) {
                int c = Typed.compare(
                        Evaluator.eval(o.expr(), a, scope).value(),
                        Evaluator.eval(o.expr(), b, scope).value());
                if (c != 0) {
                    return o.descending() ? -c : c;
                }
            }
            return 0;
        };
    }

    private static List<Out> columns(Statement.Select s, TableSchema schema, Scope scope) {
        List<Out> out = new ArrayList<>();
        if (s.items().isEmpty()) {
            for (Statement.ColumnDef c : schema.columns()) {
                out.add(new Out(c.name(), new Expr.Column(c.name()), c.type()));
            }
            return out;
        }
        Object[] typeRow = schema == null ? null : typeRow(schema);
        for (int i = 0; i < s.items().size(); i++) {
            Statement.SelectItem item = s.items().get(i);
            String name = item.alias() != null
                    ? item.alias()
                    : item.expr() instanceof Expr.Column c ? c.name() : "column" + i;
            YqlType type = Evaluator.eval(item.expr(), typeRow, scope).type();
            out.add(new Out(name, item.expr(), type));
        }
        return out;
    }

    /** A row of placeholder values: evaluating over it gives each expression's static type. */
    private static Object[] typeRow(TableSchema schema) {
        Object[] row = new Object[schema.columns().size()];
        for (int i = 0; i < row.length; i++) {
            row[i] = switch (schema.type(i).kind()) {
                case BOOL -> Boolean.FALSE;
                case DOUBLE -> 0.0;
                case STRING -> ByteString.EMPTY;
                case UTF8, JSON -> "";
                default -> 0L;
            };
        }
        return row;
    }

    private static ValueProtos.ResultSet encode(List<Out> columns, List<Object[]> rows, Scope scope) {
        ValueProtos.ResultSet.Builder rs = ValueProtos.ResultSet.newBuilder();
        for (Out c : columns) {
            rs.addColumns(ValueProtos.Column.newBuilder().setName(c.name()).setType(Values.toProto(c.type())));
        }
        for (Object[] row : rows) {
            ValueProtos.Value.Builder r = ValueProtos.Value.newBuilder();
            for (Out c : columns) {
                TypedValue v = Evaluator.eval(c.expr(), row, scope);
                Object value = Typed.convert(v.value(), v.type(), c.type(), true, c.name());
                r.addItems(Values.toProto(value, c.type()));
            }
            rs.addRows(r);
        }
        return rs.build();
    }
}
