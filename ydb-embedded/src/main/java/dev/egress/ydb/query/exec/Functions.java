package dev.egress.ydb.query.exec;

import com.google.protobuf.ByteString;
import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.sql.Expr;
import dev.egress.ydb.query.value.Kind;
import dev.egress.ydb.query.value.Typed;
import dev.egress.ydb.query.value.YqlType;
import java.util.Locale;

/** The built-in functions of the subset and CAST. */
final class Functions {

    private Functions() {}

    static TypedValue call(Expr.Call call, Object[] row, Scope scope) {
        String name = call.name().toLowerCase(Locale.ROOT);
        switch (name) {
            case "currentutctimestamp":
                return new TypedValue(scope.nowMicros(), YqlType.of(Kind.TIMESTAMP));
            case "timestamp", "interval", "date", "datetime":
                return temporal(call, name, row, scope);
            case "utf8", "json", "string", "uint64", "int64", "int32", "uint32", "uint8", "bool":
                return constructor(call, name, row, scope);
            case "count", "min", "max", "sum", "avg", "some":
                throw YdbError.unsupported("aggregate function " + call.name().toUpperCase(Locale.ROOT));
            default:
                throw YdbError.unsupported("function " + call.name());
        }
    }

    private static TypedValue temporal(Expr.Call call, String name, Object[] row, Scope scope) {
        TypedValue arg = single(call, row, scope);
        Kind kind = Kind.byName(name);
        if (arg.value() == null) {
            return new TypedValue(null, YqlType.of(kind).asOptional());
        }
        String text = arg.value() instanceof ByteString b ? b.toStringUtf8() : String.valueOf(arg.value());
        return new TypedValue(Evaluator.micros(text, name), YqlType.of(kind));
    }

    private static TypedValue constructor(Expr.Call call, String name, Object[] row, Scope scope) {
        TypedValue arg = single(call, row, scope);
        YqlType to = YqlType.of(Kind.byName(name));
        if (arg.value() instanceof ByteString b && to.kind().integer()) {
            return new TypedValue(parseInteger(b.toStringUtf8(), to), to);
        }
        return new TypedValue(Typed.convert(arg.value(), arg.type(), to, true, name), to);
    }

    private static TypedValue single(Expr.Call call, Object[] row, Scope scope) {
        if (call.args().size() != 1) {
            throw YdbError.generic(call.name() + " expects one argument");
        }
        return Evaluator.eval(call.args().get(0), row, scope);
    }

    /** {@code CAST(v AS T)}: YQL's conversions that cannot fail give T, the others T? (NULL on failure). */
    static TypedValue cast(TypedValue v, YqlType to) {
        YqlType result = to.asOptional();
        if (v.value() == null) {
            return new TypedValue(null, result);
        }
        Kind from = v.type().kind();
        try {
            if (from == Kind.STRING || from == Kind.UTF8) {
                String s = v.value() instanceof ByteString b ? b.toStringUtf8() : (String) v.value();
                if (to.kind().integer()) {
                    return new TypedValue(parseInteger(s, to), result);
                }
                if (to.kind() == Kind.UTF8 || to.kind() == Kind.JSON) {
                    return new TypedValue(s, result);
                }
                if (to.kind() == Kind.STRING) {
                    return new TypedValue(ByteString.copyFromUtf8(s), result);
                }
                if (to.kind() == Kind.DOUBLE) {
                    return new TypedValue(Double.parseDouble(s), result);
                }
            }
            if (to.kind() == Kind.UTF8 && (from.integer() || from == Kind.DOUBLE || from == Kind.BOOL)) {
                return new TypedValue(String.valueOf(v.value()), result);
            }
            return new TypedValue(Typed.convert(v.value(), v.type(), to, true, "CAST"), result);
        } catch (NumberFormatException | YdbError e) {
            return new TypedValue(null, result);
        }
    }

    private static Long parseInteger(String s, YqlType to) {
        long v = to.kind() == Kind.UINT64 ? Long.parseUnsignedLong(s.trim()) : Long.parseLong(s.trim());
        return (Long) Typed.convert(v, YqlType.of(Kind.INT64), to, true, "literal");
    }
}
