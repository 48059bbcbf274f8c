package dev.egress.ydb.query.value;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The YDB types this node stores and computes with; the number is the wire {@code type_id}. */
public enum Kind {
    BOOL(6),
    INT8(7),
    INT16(8),
    INT32(1),
    INT64(3),
    UINT8(5),
    UINT16(9),
    UINT32(2),
    UINT64(4),
    DOUBLE(0x20),
    STRING(0x1001),
    UTF8(0x1200),
    JSON(0x1202),
    DATE(0x30),
    DATETIME(0x31),
    TIMESTAMP(0x32),
    INTERVAL(0x33),
    LIST(-1),
    STRUCT(-1),
    NULL(-1);

    private static final Map<String, Kind> BY_NAME = Stream.of(values())
            .filter(k -> k.typeId > 0)
            .collect(Collectors.toMap(k -> k.name().toLowerCase(Locale.ROOT), k -> k));

    private final int typeId;

    Kind(int typeId) {
        this.typeId = typeId;
    }

    public int typeId() {
        return typeId;
    }

    public boolean primitive() {
        return typeId > 0;
    }

    public boolean integer() {
        return switch (this) {
            case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 -> true;
            default -> false;
        };
    }

    public boolean unsigned() {
        return this == UINT8 || this == UINT16 || this == UINT32 || this == UINT64;
    }

    /** May this type be a primary-key or index-key column (YDB: not Double, Json, Interval…)? */
    public boolean keyable() {
        return primitive() && this != DOUBLE && this != JSON && this != INTERVAL;
    }

    /** The type of a YQL type name, case-insensitive, with YDB's aliases (Text = Utf8, Bytes = String). */
    public static Kind byName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return switch (lower) {
            case "text" -> UTF8;
            case "bytes" -> STRING;
            default -> BY_NAME.get(lower);
        };
    }

    /** The YQL spelling, e.g. {@code Utf8}, {@code Uint64}. */
    public String yqlName() {
        String n = name().toLowerCase(Locale.ROOT);
        return Character.toUpperCase(n.charAt(0)) + n.substring(1);
    }

    public static Kind byTypeId(int id) {
        for (Kind k : values()) {
            if (k.typeId == id) {
                return k;
            }
        }
        return null;
    }
}
