package dev.egress.ydb.query.sql;

import dev.egress.ydb.query.value.YqlType;
import java.util.List;

/** A statement of the subset. */
public sealed interface Statement {

    /** Is it a scheme operation (which YDB runs outside transactions only)? */
    default boolean ddl() {
        return false;
    }

    /** {@code DECLARE $name AS type}. */
    record Declare(String name, YqlType type) implements Statement {}

    /** A column of CREATE TABLE. */
    record ColumnDef(String name, YqlType type, boolean notNull) {}

    /** {@code INDEX name GLOBAL [UNIQUE] [SYNC|ASYNC] ON (…) [COVER (…)]}. */
    record IndexDef(String name, boolean async, List<String> columns, List<String> cover) {}

    /** {@code WITH (TTL = Interval("…") ON column)}. */
    record TtlDef(long intervalMicros, String column) {}

    /** {@code CREATE TABLE}; {@code text} is the statement as written (the data directory's log keeps it). */
    record CreateTable(
            String table,
            boolean ifNotExists,
            List<ColumnDef> columns,
            List<String> primaryKey,
            List<IndexDef> indexes,
            TtlDef ttl)
            implements Statement {
        @Override
        public boolean ddl() {
            return true;
        }
    }

    /** {@code DROP TABLE [IF EXISTS] name}. */
    record DropTable(String table, boolean ifExists) implements Statement {
        @Override
        public boolean ddl() {
            return true;
        }
    }

    /** One output column: an expression and its name (null: {@code column<i>}, or the column's own name). */
    record SelectItem(Expr expr, String alias) {}

    /** {@code ORDER BY e [ASC|DESC]}. */
    record Order(Expr expr, boolean descending) {}

    /** {@code SELECT … [FROM t [VIEW idx]] [WHERE …] [ORDER BY …] [LIMIT n [OFFSET m]]}; empty items = {@code *}. */
    record Select(
            List<SelectItem> items, String table, String view, Expr where, List<Order> orderBy, Expr limit, Expr offset)
            implements Statement {}

    /** The write verbs. */
    enum WriteMode {
        UPSERT,
        REPLACE,
        INSERT
    }

    /**
     * {@code UPSERT|REPLACE|INSERT INTO t (cols) VALUES (…), …} or {@code … INTO t SELECT * FROM AS_TABLE($p)}
     * (then {@code columns} is empty and {@code source} names the parameter).
     */
    record Write(WriteMode mode, String table, List<String> columns, List<List<Expr>> rows, String source)
            implements Statement {}

    /** {@code UPDATE t SET c = e, … [WHERE …]}. */
    record Update(String table, List<String> columns, List<Expr> values, Expr where) implements Statement {}

    /** {@code DELETE FROM t [WHERE …]}. */
    record Delete(String table, Expr where) implements Statement {}
}
