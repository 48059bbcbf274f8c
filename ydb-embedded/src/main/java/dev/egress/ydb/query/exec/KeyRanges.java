package dev.egress.ydb.query.exec;

import com.google.protobuf.ByteString;
import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.sql.Expr;
import dev.egress.ydb.query.store.TableSchema;
import dev.egress.ydb.query.value.Typed;
import dev.egress.ydb.query.value.YqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which key ranges a WHERE clause confines a read to: equalities on a key prefix, then one IN list or one range on
 * the next key column. Everything else in the predicate is checked row by row; a predicate that constrains no key
 * prefix reads (and locks) the whole table.
 *
 * @param ranges {@code [lo, hi]} pairs of padded keys; one full range when {@code whole}
 * @param whole  no key prefix is constrained
 */
record KeyRanges(List<Object[][]> ranges, boolean whole) {

    static KeyRanges of(Expr where, int[] keyColumns, int keyLength, TableSchema schema, Scope scope) {
        List<Expr> conjuncts = new ArrayList<>();
        flatten(where, conjuncts);
        List<Object[]> prefixes = new ArrayList<>();
        prefixes.add(new Object[0]);
        for (int col : keyColumns) {
            String name = schema.columns().get(col).name();
            YqlType type = schema.type(col);
            List<Object> eq = equalities(conjuncts, name, type, scope);
            if (eq == null) {
                Object[] lower = bound(conjuncts, name, type, scope, true);
                Object[] upper = bound(conjuncts, name, type, scope, false);
                return build(prefixes, lower, upper, keyLength);
            }
            List<Object[]> next = new ArrayList<>();
            for (Object[] p : prefixes) {
                for (Object v : eq) {
                    Object[] k = Arrays.copyOf(p, p.length + 1);
                    k[p.length] = v;
                    next.add(k);
                }
            }
            prefixes = next;
        }
        return build(prefixes, null, null, keyLength);
    }

    private static KeyRanges build(List<Object[]> prefixes, Object[] lower, Object[] upper, int keyLength) {
        boolean whole = prefixes.size() == 1 && prefixes.get(0).length == 0 && lower == null && upper == null;
        List<Object[][]> ranges = new ArrayList<>();
        for (Object[] p : prefixes) {
            Object[] lo = pad(p, lower, keyLength, true);
            Object[] hi = pad(p, upper, keyLength, false);
            ranges.add(new Object[][] {lo, hi});
        }
        return new KeyRanges(ranges, whole);
    }

    /** prefix + bound value + MIN/MAX padding; bound = {value, inclusive}. */
    private static Object[] pad(Object[] prefix, Object[] bound, int length, boolean low) {
        Object[] k = Arrays.copyOf(prefix, length);
        int i = prefix.length;
        if (i < length) {
            if (bound == null) {
                k[i] = low ? Typed.MIN : Typed.MAX;
            } else {
                k[i] = bound[0];
                boolean inclusive = (Boolean) bound[1];
                Arrays.fill(k, i + 1, length, low == inclusive ? Typed.MIN : Typed.MAX);
                return k;
            }
            Arrays.fill(k, i + 1, length, low ? Typed.MIN : Typed.MAX);
        }
        return k;
    }

    private static void flatten(Expr e, List<Expr> out) {
        if (e instanceof Expr.Binary b && b.op().equals("AND")) {
            flatten(b.left(), out);
            flatten(b.right(), out);
        } else if (e != null) {
            out.add(e);
        }
    }

    /** The values a column must equal ({@code =} or IN), or null when unconstrained. */
    private static List<Object> equalities(List<Expr> conjuncts, String column, YqlType type, Scope scope) {
        for (Expr e : conjuncts) {
            if (e instanceof Expr.Binary b && b.op().equals("=")) {
                Expr other = otherSide(b, column);
                if (other != null) {
                    Object v = convert(Evaluator.eval(other, null, scope), type);
                    if (v != NO) {
                        return v == null ? List.of() : List.of(v);
                    }
                }
            }
            if (e instanceof Expr.In in
                    && !in.negated()
                    && isColumn(in.operand(), column)
                    && Evaluator.constant(in.list())) {
                List<Object> values = new ArrayList<>();
                for (TypedValue item : Evaluator.inItems(in.list(), null, scope)) {
                    Object v = convert(item, type);
                    if (v == NO) {
                        return null;
                    }
                    if (v != null && values.stream().noneMatch(x -> Typed.compare(x, v) == 0)) {
                        values.add(v);
                    }
                }
                values.sort(Typed::compare);
                return values;
            }
        }
        return null;
    }

    private static Object[] bound(List<Expr> conjuncts, String column, YqlType type, Scope scope, boolean lower) {
        for (Expr e : conjuncts) {
            if (!(e instanceof Expr.Binary b) || !List.of("<", "<=", ">", ">=").contains(b.op())) {
                continue;
            }
            String op = b.op();
            Expr other;
            if (isColumn(b.left(), column) && Evaluator.constant(b.right())) {
                other = b.right();
            } else if (isColumn(b.right(), column) && Evaluator.constant(b.left())) {
                other = b.left();
                op = op.replace('<', '#').replace('>', '<').replace('#', '>'); // 5 < c  is  c > 5
            } else {
                continue;
            }
            boolean isLower = op.startsWith(">");
            if (isLower != lower) {
                continue;
            }
            Object v = convert(Evaluator.eval(other, null, scope), type);
            if (v != NO && v != null) {
                return new Object[] {v, op.endsWith("=")};
            }
        }
        return null;
    }

    private static Expr otherSide(Expr.Binary b, String column) {
        if (isColumn(b.left(), column) && Evaluator.constant(b.right())) {
            return b.right();
        }
        if (isColumn(b.right(), column) && Evaluator.constant(b.left())) {
            return b.left();
        }
        return null;
    }

    private static boolean isColumn(Expr e, String column) {
        return e instanceof Expr.Column c && c.name().equals(column);
    }

    private static final Object NO = new Object();

    /** The constant as a value of the column's type; NO when it does not convert (then: no range, just a filter). */
    private static Object convert(TypedValue v, YqlType type) {
        try {
            Object c = Typed.convert(v.value(), v.type(), type, true, "key");
            if (c instanceof ByteString && type.kind() != v.type().kind()) {
                return NO;
            }
            return c;
        } catch (YdbError e) {
            return NO;
        }
    }
}
