package dev.egress.ydb.query.value;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A YQL type: a primitive (possibly Optional), a List of an item type, or a Struct of named members (kept sorted by
 * name, as the SDK sends them: members are matched by name, never by position).
 *
 * @param kind     the type
 * @param optional {@code T?}
 * @param item     a List's item type, else null
 * @param members  a Struct's members by name, else empty
 */
public record YqlType(Kind kind, boolean optional, YqlType item, Map<String, YqlType> members) {

    public YqlType {
        Objects.requireNonNull(kind, "kind");
        members = members == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(members));
    }

    public static YqlType of(Kind kind) {
        return new YqlType(kind, false, null, null);
    }

    public static YqlType list(YqlType item) {
        return new YqlType(Kind.LIST, false, item, null);
    }

    public static YqlType struct(Map<String, YqlType> members) {
        return new YqlType(Kind.STRUCT, false, null, members);
    }

    public YqlType asOptional() {
        return optional ? this : new YqlType(kind, true, item, members);
    }

    public YqlType asRequired() {
        return optional ? new YqlType(kind, false, item, members) : this;
    }

    /** YQL spelling, e.g. {@code Optional<Utf8>}, {@code List<Struct<'a':Int32>>}. */
    @Override
    public String toString() {
        String base = switch (kind) {
            case LIST -> "List<" + item + ">";
            case STRUCT ->
                members.entrySet().stream()
                        .map(e -> "'" + e.getKey() + "':" + e.getValue())
                        .collect(Collectors.joining(",", "Struct<", ">"));
            case NULL -> "Null";
            default -> kind.yqlName();
        };
        return optional ? "Optional<" + base + ">" : base;
    }

    /** Member names in wire order (sorted). */
    public List<String> memberNames() {
        return List.copyOf(members.keySet());
    }
}
