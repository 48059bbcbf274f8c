package dev.egress.ydb.query.value;

import com.google.protobuf.ByteString;
import com.google.protobuf.NullValue;
import dev.egress.ydb.query.YdbError;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.ydb.proto.ValueProtos;

/**
 * Java values of YQL types and their wire form. A value is {@code null} (NULL), Boolean, Long (every integer, the
 * date/time types as their wire numbers: days, seconds, microseconds; Uint64 as an unsigned long), Double, String
 * (Utf8, Json), ByteString (String), List (List) or Map (Struct, by member name).
 */
public final class Values {

    private Values() {}

    /** The wire type of {@code type}. */
    public static ValueProtos.Type toProto(YqlType type) {
        ValueProtos.Type.Builder b = ValueProtos.Type.newBuilder();
        switch (type.kind()) {
            case LIST -> b.setListType(ValueProtos.ListType.newBuilder().setItem(toProto(type.item())));
            case STRUCT -> {
                ValueProtos.StructType.Builder s = ValueProtos.StructType.newBuilder();
                type.members()
                        .forEach((name, t) -> s.addMembers(ValueProtos.StructMember.newBuilder()
                                .setName(name)
                                .setType(toProto(t))));
                b.setStructType(s);
            }
            case NULL -> b.setNullType(NullValue.NULL_VALUE);
            default -> b.setTypeIdValue(type.kind().typeId());
        }
        ValueProtos.Type bare = b.build();
        if (!type.optional() || type.kind() == Kind.NULL) {
            return bare;
        }
        return ValueProtos.Type.newBuilder()
                .setOptionalType(ValueProtos.OptionalType.newBuilder().setItem(bare))
                .build();
    }

    /** The type of a wire type; anything this node cannot hold is refused naming it. */
    public static YqlType fromProto(ValueProtos.Type type) {
        return switch (type.getTypeCase()) {
            case TYPE_ID -> {
                Kind kind = Kind.byTypeId(type.getTypeIdValue());
                if (kind == null) {
                    throw YdbError.unsupported("parameter type " + type.getTypeId());
                }
                yield YqlType.of(kind);
            }
            case OPTIONAL_TYPE -> fromProto(type.getOptionalType().getItem()).asOptional();
            case LIST_TYPE -> YqlType.list(fromProto(type.getListType().getItem()));
            case STRUCT_TYPE -> {
                Map<String, YqlType> members = new LinkedHashMap<>();
                type.getStructType().getMembersList().forEach(m -> members.put(m.getName(), fromProto(m.getType())));
                yield YqlType.struct(members);
            }
            case NULL_TYPE, VOID_TYPE -> YqlType.of(Kind.NULL);
            default -> throw YdbError.unsupported("parameter type " + type.getTypeCase());
        };
    }

    /** The wire value: bare values for present optionals, {@code null_flag_value} for NULL. */
    public static ValueProtos.Value toProto(Object value, YqlType type) {
        ValueProtos.Value.Builder b = ValueProtos.Value.newBuilder();
        if (value == null) {
            return b.setNullFlagValue(NullValue.NULL_VALUE).build();
        }
        switch (type.kind()) {
            case BOOL -> b.setBoolValue((Boolean) value);
            case INT8, INT16, INT32 -> b.setInt32Value(((Long) value).intValue());
            case INT64, INTERVAL -> b.setInt64Value((Long) value);
            case UINT8, UINT16, UINT32, DATE, DATETIME -> b.setUint32Value(((Long) value).intValue());
            case UINT64, TIMESTAMP -> b.setUint64Value((Long) value);
            case DOUBLE -> b.setDoubleValue((Double) value);
            case STRING -> b.setBytesValue((ByteString) value);
            case UTF8, JSON -> b.setTextValue((String) value);
            case LIST -> ((List<?>) value).forEach(v -> b.addItems(toProto(v, type.item())));
            case STRUCT -> type.members().forEach((name, t) -> b.addItems(toProto(((Map<?, ?>) value).get(name), t)));
            default -> b.setNullFlagValue(NullValue.NULL_VALUE);
        }
        return b.build();
    }

    /** The Java value of a wire value of {@code type}; accepts bare and {@code nested_value} optionals. */
    public static Object fromProto(ValueProtos.Value value, YqlType type) {
        if (value.getValueCase() == ValueProtos.Value.ValueCase.NULL_FLAG_VALUE || type.kind() == Kind.NULL) {
            return null;
        }
        if (type.optional() && value.getValueCase() == ValueProtos.Value.ValueCase.NESTED_VALUE) {
            return fromProto(value.getNestedValue(), type.asRequired());
        }
        return switch (type.kind()) {
            case BOOL -> value.getBoolValue();
            case INT8, INT16, INT32 -> (long) value.getInt32Value();
            case INT64, INTERVAL -> value.getInt64Value();
            case UINT8, UINT16, UINT32, DATE, DATETIME -> Integer.toUnsignedLong(value.getUint32Value());
            case UINT64, TIMESTAMP -> value.getUint64Value();
            case DOUBLE -> value.getDoubleValue();
            case STRING -> value.getBytesValue();
            case UTF8, JSON -> value.getTextValue();
            case LIST -> {
                List<Object> items = new ArrayList<>(value.getItemsCount());
                value.getItemsList().forEach(v -> items.add(fromProto(v, type.item())));
                yield Collections.unmodifiableList(items);
            }
            case STRUCT -> {
                Map<String, Object> members = new LinkedHashMap<>();
                List<String> names = type.memberNames();
                for (int i = 0; i < names.size(); i++) {
                    members.put(
                            names.get(i),
                            fromProto(value.getItems(i), type.members().get(names.get(i))));
                }
                yield members;
            }
            default -> null;
        };
    }

    /** Approximate stored size of a value, for the byte limits. */
    public static long sizeOf(Object v) {
        if (v instanceof String s) {
            return 16L + s.length();
        }
        if (v instanceof ByteString b) {
            return 16L + b.size();
        }
        return 8;
    }
}
