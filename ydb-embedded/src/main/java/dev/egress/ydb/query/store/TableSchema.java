package dev.egress.ydb.query.store;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.sql.Statement;
import dev.egress.ydb.query.value.Kind;
import dev.egress.ydb.query.value.YqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A table's columns, primary key, secondary indexes and TTL, checked as YDB checks a CREATE TABLE.
 *
 * @param path    the table's full path, e.g. {@code /local/events}
 * @param columns in declaration order; a column without NOT NULL is Optional (primary-key columns too)
 * @param key     positions of the primary-key columns
 * @param indexes the secondary indexes
 * @param ttl     the TTL, or null
 */
public record TableSchema(
        String path, List<Statement.ColumnDef> columns, int[] key, List<IndexSchema> indexes, Ttl ttl) {

    /** A secondary index: its key columns' positions (the primary key follows implicitly). */
    public record IndexSchema(
            String name, boolean async, int[] columns, List<String> columnNames, List<String> cover) {}

    /** Rows expire {@code intervalMicros} after the value of the column at {@code column}. */
    public record Ttl(int column, long intervalMicros) {}

    /** Validates a CREATE TABLE statement into a schema. */
    public static TableSchema of(String path, Statement.CreateTable create) {
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < create.columns().size(); i++) {
            if (positions.put(create.columns().get(i).name(), i) != null) {
                throw YdbError.generic(
                        "Duplicate column " + create.columns().get(i).name());
            }
        }
        int[] key = positionsOf(create.primaryKey(), positions, create.columns(), "primary key");
        List<IndexSchema> indexes = new ArrayList<>();
        for (Statement.IndexDef index : create.indexes()) {
            int[] cols = positionsOf(index.columns(), positions, create.columns(), "index " + index.name());
            positionsOf(index.cover(), positions, null, "index " + index.name() + " COVER");
            indexes.add(new IndexSchema(index.name(), index.async(), cols, index.columns(), index.cover()));
        }
        Ttl ttl = null;
        if (create.ttl() != null) {
            Integer col = positions.get(create.ttl().column());
            if (col == null) {
                throw YdbError.generic("TTL column " + create.ttl().column() + " does not exist");
            }
            Kind k = create.columns().get(col).type().kind();
            if (k != Kind.TIMESTAMP && k != Kind.DATE && k != Kind.DATETIME) {
                throw YdbError.unsupported("TTL on a " + k.yqlName() + " column (only Timestamp, Date, Datetime)");
            }
            ttl = new Ttl(col, create.ttl().intervalMicros());
        }
        return new TableSchema(path, List.copyOf(create.columns()), key, List.copyOf(indexes), ttl);
    }

    private static int[] positionsOf(
            List<String> names, Map<String, Integer> positions, List<Statement.ColumnDef> columns, String what) {
        int[] out = new int[names.size()];
        for (int i = 0; i < names.size(); i++) {
            Integer p = positions.get(names.get(i));
            if (p == null) {
                throw YdbError.generic("Unknown column " + names.get(i) + " in " + what);
            }
            if (columns != null && !columns.get(p).type().kind().keyable()) {
                throw YdbError.generic("Column " + names.get(i) + " of type "
                        + columns.get(p).type().kind().yqlName() + " cannot be a key column of " + what);
            }
            out[i] = p;
        }
        return out;
    }

    /** The position of a column, or -1. */
    public int column(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    public YqlType type(int column) {
        return columns.get(column).type();
    }

    public IndexSchema index(String name) {
        return indexes.stream().filter(i -> i.name().equals(name)).findFirst().orElse(null);
    }

    /** The primary key of a row. */
    public Object[] keyOf(Object[] row) {
        Object[] k = new Object[key.length];
        for (int i = 0; i < key.length; i++) {
            k[i] = row[key[i]];
        }
        return k;
    }

    /** The entry of a row in an index: the index columns, then the primary key. */
    public Object[] indexEntry(IndexSchema index, Object[] row) {
        Object[] e = new Object[index.columns().length + key.length];
        for (int i = 0; i < index.columns().length; i++) {
            e[i] = row[index.columns()[i]];
        }
        for (int i = 0; i < key.length; i++) {
            e[index.columns().length + i] = row[key[i]];
        }
        return e;
    }

    /** The CREATE TABLE statement that makes this schema again (the data directory keeps it). */
    public String ddl() {
        StringBuilder b = new StringBuilder("CREATE TABLE `").append(path).append("` (");
        for (Statement.ColumnDef c : columns) {
            b.append('`')
                    .append(c.name())
                    .append("` ")
                    .append(c.type().asRequired().kind().yqlName());
            b.append(c.notNull() ? " NOT NULL, " : ", ");
        }
        for (IndexSchema i : indexes) {
            b.append("INDEX `").append(i.name()).append("` GLOBAL ").append(i.async() ? "ASYNC" : "SYNC");
            b.append(" ON (").append(quoted(i.columnNames())).append(')');
            if (!i.cover().isEmpty()) {
                b.append(" COVER (").append(quoted(i.cover())).append(')');
            }
            b.append(", ");
        }
        List<String> pk = new ArrayList<>();
        for (int k : key) {
            pk.add(columns.get(k).name());
        }
        b.append("PRIMARY KEY (").append(quoted(pk)).append("))");
        if (ttl != null) {
            b.append(" WITH (TTL = Interval(\"PT")
                    .append(ttl.intervalMicros() / 1_000_000.0)
                    .append("S\") ON `");
            b.append(columns.get(ttl.column()).name()).append("`)");
        }
        return b.toString();
    }

    private static String quoted(List<String> names) {
        return names.stream().map(n -> "`" + n + "`").collect(Collectors.joining(", "));
    }
}
