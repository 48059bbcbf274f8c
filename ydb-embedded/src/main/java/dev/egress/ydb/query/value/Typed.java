package dev.egress.ydb.query.value;

import com.google.protobuf.ByteString;
import dev.egress.ydb.query.YdbError;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;

/**
 * Comparison and conversion of values: the order of keys (NULL first, Uint64 unsigned, String bytewise) and the
 * implicit conversions YQL applies to a value written into or compared with a column.
 */
public final class Typed {

    /** Below every value: the open end of a key range. */
    public static final Object MIN = new Object();
    /** Above every value. */
    public static final Object MAX = new Object();

    private Typed() {}

    /** Compares two values of compatible types; NULL sorts first (as in YDB keys). */
    @SuppressWarnings("unchecked")
    public static int compare(Object a, Object b) {
        if (a == b) {
            return 0;
        }
        if (a == MIN || b == MAX) {
            return -1;
        }
        if (a == MAX || b == MIN) {
            return 1;
        }
        if (a == null) {
            return -1;
        }
        if (b == null) {
            return 1;
        }
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Number x && b instanceof Number y) {
            return Double.compare(x.doubleValue(), y.doubleValue());
        }
        if (a instanceof ByteString x && b instanceof ByteString y) {
            return ByteString.unsignedLexicographicalComparator().compare(x, y);
        }
        if (a instanceof ByteString x && b instanceof String y) {
            return compare(x, ByteString.copyFromUtf8(y));
        }
        if (a instanceof String x && b instanceof ByteString y) {
            return compare(ByteString.copyFromUtf8(x), y);
        }
        if (a.getClass() != b.getClass()) {
            throw YdbError.generic("Cannot compare " + a.getClass().getSimpleName() + " with "
                    + b.getClass().getSimpleName());
        }
        return ((Comparable<Object>) a).compareTo(b);
    }

    /** Orders key tuples column by column (shorter tuples are never compared with longer ones here). */
    public static final Comparator<Object[]> KEYS = (a, b) -> {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            int c = compare(a[i], b[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.length, b.length);
    };

    /**
     * Converts a value for a column (or parameter slot) of type {@code to}. Integers convert with a range check;
     * string literals ({@code literal}) become Utf8/Json; anything else must already have the column's type.
     */
    public static Object convert(Object value, YqlType from, YqlType to, boolean literal, String what) {
        if (value == null) {
            return null; // NOT NULL columns are checked by the writer, which knows the column
        }
        Kind f = from.kind();
        Kind t = to.kind();
        if (f == t) {
            return value;
        }
        if (f.integer() && t.integer()) {
            return checkRange((Long) value, f, t, what);
        }
        if (literal && f == Kind.STRING && (t == Kind.UTF8 || t == Kind.JSON)) {
            return ((ByteString) value).toStringUtf8();
        }
        if (literal && f == Kind.UTF8 && t == Kind.STRING) {
            return ByteString.copyFrom(((String) value).getBytes(StandardCharsets.UTF_8));
        }
        if (f.integer() && t == Kind.DOUBLE) {
            return ((Long) value).doubleValue();
        }
        if (f == Kind.UTF8 && t == Kind.JSON || f == Kind.JSON && t == Kind.UTF8) {
            return value;
        }
        throw YdbError.generic(
                "Type mismatch for " + what + ": " + from.asRequired() + " cannot be converted to " + to.asRequired());
    }

    private static Long checkRange(long v, Kind from, Kind to, String what) {
        boolean fits = switch (to) {
            case INT8 -> v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE;
            case INT16 -> v >= Short.MIN_VALUE && v <= Short.MAX_VALUE;
            case INT32 -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
            case INT64 -> from != Kind.UINT64 || v >= 0;
            case UINT8 -> v >= 0 && v <= 0xFF;
            case UINT16 -> v >= 0 && v <= 0xFFFF;
            case UINT32 -> v >= 0 && v <= 0xFFFFFFFFL;
            case UINT64 -> v >= 0 || from == Kind.UINT64;
            default -> false;
        };
        if (!fits) {
            throw YdbError.badRequest("Value " + v + " is out of range for " + to.yqlName() + " (" + what + ")");
        }
        return v;
    }
}
