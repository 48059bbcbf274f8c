package dev.egress.ydb.query.exec;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.value.Kind;
import dev.egress.ydb.query.value.YqlType;

/** {@code + - * / %} over integers, Double, and Timestamp/Interval as YQL types them. */
final class Arithmetic {

    private Arithmetic() {}

    static TypedValue apply(String op, TypedValue l, TypedValue r, boolean optional) {
        YqlType type = resultType(op, l.type(), r.type());
        YqlType result = optional ? type.asOptional() : type;
        if (l.value() == null || r.value() == null) {
            return new TypedValue(null, result.asOptional());
        }
        if (type.kind() == Kind.DOUBLE) {
            double a = ((Number) l.value()).doubleValue();
            double b = ((Number) r.value()).doubleValue();
            double v = switch (op) {
                case "+" -> a + b;
                case "-" -> a - b;
                case "*" -> a * b;
                case "/" -> a / b;
                default -> a % b;
            };
            return new TypedValue(v, result);
        }
        long a = (Long) l.value();
        long b = (Long) r.value();
        if ((op.equals("/") || op.equals("%")) && b == 0) {
            return new TypedValue(null, result.asOptional()); // YQL: integer division by zero is NULL
        }
        long v = switch (op) {
            case "+" -> a + b;
            case "-" -> a - b;
            case "*" -> a * b;
            case "/" -> type.kind() == Kind.UINT64 ? Long.divideUnsigned(a, b) : a / b;
            default -> type.kind() == Kind.UINT64 ? Long.remainderUnsigned(a, b) : a % b;
        };
        return new TypedValue(v, (op.equals("/") || op.equals("%")) ? result.asOptional() : result);
    }

    private static YqlType resultType(String op, YqlType l, YqlType r) {
        Kind a = l.kind();
        Kind b = r.kind();
        if (a == Kind.NULL || b == Kind.NULL) {
            return YqlType.of(a == Kind.NULL ? b : a);
        }
        if (a == Kind.TIMESTAMP && b == Kind.INTERVAL && (op.equals("+") || op.equals("-"))) {
            return YqlType.of(Kind.TIMESTAMP);
        }
        if (a == Kind.INTERVAL && b == Kind.TIMESTAMP && op.equals("+")) {
            return YqlType.of(Kind.TIMESTAMP);
        }
        if (a == Kind.TIMESTAMP && b == Kind.TIMESTAMP && op.equals("-")) {
            return YqlType.of(Kind.INTERVAL);
        }
        if (a == Kind.INTERVAL && b == Kind.INTERVAL && (op.equals("+") || op.equals("-"))) {
            return YqlType.of(Kind.INTERVAL);
        }
        if (a == Kind.DOUBLE || b == Kind.DOUBLE) {
            if ((a.integer() || a == Kind.DOUBLE) && (b.integer() || b == Kind.DOUBLE)) {
                return YqlType.of(Kind.DOUBLE);
            }
        }
        if (a.integer() && b.integer()) {
            return YqlType.of(wider(a, b));
        }
        throw YdbError.generic("Cannot apply " + op + " to " + l + " and " + r);
    }

    private static Kind wider(Kind a, Kind b) {
        if (a == b) {
            return a;
        }
        int wa = width(a);
        int wb = width(b);
        Kind w = wa >= wb ? a : b;
        if (w.unsigned() != (wa >= wb ? b : a).unsigned() && wa == wb) {
            return w.unsigned() ? w : (wa >= wb ? b : a); // same width, one unsigned: YQL picks the unsigned
        }
        return width(w) < 32 ? (w.unsigned() ? Kind.UINT32 : Kind.INT32) : w;
    }

    private static int width(Kind k) {
        return switch (k) {
            case INT8, UINT8 -> 8;
            case INT16, UINT16 -> 16;
            case INT32, UINT32 -> 32;
            default -> 64;
        };
    }
}
