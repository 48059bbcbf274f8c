package dev.egress.ydb.query.exec;

import com.google.protobuf.ByteString;
import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.sql.Expr;
import dev.egress.ydb.query.value.Kind;
import dev.egress.ydb.query.value.Typed;
import dev.egress.ydb.query.value.YqlType;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

/**
 * Evaluates expressions over one row (or none) with YQL's typing: NULL propagates, comparisons and AND/OR are
 * three-valued, integer arithmetic keeps the wider operand type ({@code 2 + 3} is Int32).
 */
final class Evaluator {

    private Evaluator() {}

    static TypedValue eval(Expr e, Object[] row, Scope scope) {
        if (e instanceof Expr.Literal l) {
            return new TypedValue(l.value(), l.type());
        } else if (e instanceof Expr.Param p) {
            return scope.param(p.name());
        } else if (e instanceof Expr.Column c) {
            return column(c, row, scope);
        } else if (e instanceof Expr.Unary u) {
            return unary(u, row, scope);
        } else if (e instanceof Expr.Binary b) {
            return binary(b, row, scope);
        } else if (e instanceof Expr.IsNull n) {
            boolean isNull = eval(n.operand(), row, scope).value() == null;
            return bool(isNull != n.negated(), false);
        } else if (e instanceof Expr.In in) {
            return in(in, row, scope);
        } else if (e instanceof Expr.Call call) {
            return Functions.call(call, row, scope);
        } else if (e instanceof Expr.Cast cast) {
            return Functions.cast(eval(cast.operand(), row, scope), cast.type());
        }
        throw YdbError.unsupported("tuple outside IN");
    }

    /** Is the expression free of column references (a constant for the whole statement)? */
    static boolean constant(Expr e) {
        if (e instanceof Expr.Column) {
            return false;
        } else if (e instanceof Expr.Unary u) {
            return constant(u.operand());
        } else if (e instanceof Expr.Binary b) {
            return constant(b.left()) && constant(b.right());
        } else if (e instanceof Expr.IsNull n) {
            return constant(n.operand());
        } else if (e instanceof Expr.In in) {
            return constant(in.operand()) && constant(in.list());
        } else if (e instanceof Expr.Call c) {
            return c.args().stream().allMatch(Evaluator::constant);
        } else if (e instanceof Expr.Cast c) {
            return constant(c.operand());
        } else if (e instanceof Expr.Tuple t) {
            return t.items().stream().allMatch(Evaluator::constant);
        }
        return true;
    }

    private static TypedValue column(Expr.Column c, Object[] row, Scope scope) {
        if (c.name().equals("*")) {
            throw YdbError.unsupported("aggregate functions (COUNT(*), …)");
        }
        int i = scope.column(c.name());
        return new TypedValue(row == null ? null : row[i], scope.schema().type(i));
    }

    private static TypedValue unary(Expr.Unary u, Object[] row, Scope scope) {
        TypedValue v = eval(u.operand(), row, scope);
        if (u.op().equals("NOT")) {
            return v.value() == null
                    ? bool(null, true)
                    : bool(!(Boolean) v.value(), v.type().optional());
        }
        if (v.value() == null) {
            return v;
        }
        if (v.value() instanceof Long l) {
            return new TypedValue(-l, v.type());
        }
        if (v.value() instanceof Double d) {
            return new TypedValue(-d, v.type());
        }
        throw YdbError.generic("Unary minus of " + v.type());
    }

    private static TypedValue binary(Expr.Binary b, Object[] row, Scope scope) {
        TypedValue l = eval(b.left(), row, scope);
        if (b.op().equals("AND") && Boolean.FALSE.equals(l.value())) {
            return bool(false, false);
        }
        if (b.op().equals("OR") && Boolean.TRUE.equals(l.value())) {
            return bool(true, false);
        }
        TypedValue r = eval(b.right(), row, scope);
        boolean optional = l.type().optional() || r.type().optional() || l.value() == null || r.value() == null;
        return switch (b.op()) {
            case "AND" -> logic(l, r, false);
            case "OR" -> logic(l, r, true);
            case "=", "!=", "<", "<=", ">", ">=" -> compare(b.op(), l, r, optional);
            default -> Arithmetic.apply(b.op(), l, r, optional);
        };
    }

    private static TypedValue logic(TypedValue l, TypedValue r, boolean or) {
        Boolean a = (Boolean) l.value();
        Boolean c = (Boolean) r.value();
        if (Boolean.valueOf(or).equals(a) || Boolean.valueOf(or).equals(c)) {
            return bool(or, false);
        }
        if (a == null || c == null) {
            return bool(null, true);
        }
        return bool(!or, l.type().optional() || r.type().optional());
    }

    static TypedValue compare(String op, TypedValue l, TypedValue r, boolean optional) {
        if (l.value() == null || r.value() == null) {
            return bool(null, true);
        }
        Object rv = comparable(r, l.type());
        Object lv = comparable(l, r.type());
        int c = Typed.compare(lv, rv);
        boolean result = switch (op) {
            case "=" -> c == 0;
            case "!=" -> c != 0;
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            case ">" -> c > 0;
            default -> c >= 0;
        };
        return bool(result, optional);
    }

    /** A string literal compared with a Utf8 column compares as text. */
    private static Object comparable(TypedValue v, YqlType other) {
        if (v.value() instanceof ByteString b && (other.kind() == Kind.UTF8 || other.kind() == Kind.JSON)) {
            return b.toStringUtf8();
        }
        return v.value();
    }

    private static TypedValue in(Expr.In in, Object[] row, Scope scope) {
        TypedValue v = eval(in.operand(), row, scope);
        List<TypedValue> items = inItems(in.list(), row, scope);
        if (v.value() == null) {
            return bool(null, true);
        }
        boolean found = false;
        for (TypedValue item : items) {
            if (item.value() != null && Typed.compare(comparable(v, item.type()), comparable(item, v.type())) == 0) {
                found = true;
                break;
            }
        }
        return bool(found != in.negated(), v.type().optional());
    }

    static List<TypedValue> inItems(Expr list, Object[] row, Scope scope) {
        if (list instanceof Expr.Tuple t) {
            return t.items().stream().map(i -> eval(i, row, scope)).toList();
        }
        TypedValue l = eval(list, row, scope);
        if (l.type().kind() != Kind.LIST) {
            throw YdbError.generic("IN expects a List, got " + l.type());
        }
        YqlType item = l.type().item();
        return ((List<?>) l.value()).stream().map(v -> new TypedValue(v, item)).toList();
    }

    static TypedValue bool(Boolean v, boolean optional) {
        YqlType t = YqlType.of(Kind.BOOL);
        return new TypedValue(v, optional || v == null ? t.asOptional() : t);
    }

    static boolean isTrue(TypedValue v) {
        return Boolean.TRUE.equals(v.value());
    }

    static long micros(String iso, String fn) {
        try {
            return switch (fn.toLowerCase(Locale.ROOT)) {
                case "timestamp" -> {
                    Instant i = Instant.parse(iso);
                    yield i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
                }
                case "interval" -> Duration.parse(iso).toNanos() / 1000;
                case "date" -> LocalDate.parse(iso).toEpochDay();
                default -> Instant.parse(iso).getEpochSecond();
            };
        } catch (DateTimeParseException e) {
            throw YdbError.generic("Invalid value \"" + iso + "\" for " + fn);
        }
    }
}
