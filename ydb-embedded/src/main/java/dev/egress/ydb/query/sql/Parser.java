package dev.egress.ydb.query.sql;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.value.Kind;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses a query text of the subset (grammar: docs/ydb-tables.md) into statements. A construct of YQL outside the
 * subset is refused with UNSUPPORTED naming it; text that is not YQL, with GENERIC_ERROR and its position.
 */
public final class Parser extends ExprParser {

    private Parser(List<Token> tokens) {
        super(tokens);
    }

    /** The statements of a query text, in order. */
    public static List<Statement> parse(String text) {
        Parser parser = new Parser(Lexer.tokenize(text));
        List<Statement> statements = new ArrayList<>();
        while (parser.peek().type() != Token.Type.EOF) {
            if (parser.accept(";")) {
                continue;
            }
            statements.add(parser.statement());
            if (parser.peek().type() != Token.Type.EOF) {
                parser.expect(";");
            }
        }
        return statements;
    }

    private Statement statement() {
        Token t = peek();
        String word = t.type() == Token.Type.IDENT ? t.text().toUpperCase(Locale.ROOT) : "";
        return switch (word) {
            case "DECLARE" -> declare();
            case "CREATE" -> create();
            case "DROP" -> drop();
            case "SELECT" -> new SelectParser(this).select();
            case "UPSERT", "REPLACE", "INSERT" -> write();
            case "UPDATE" -> update();
            case "DELETE" -> delete();
            case "PRAGMA",
                    "ALTER",
                    "COMMIT",
                    "DEFINE",
                    "EVALUATE",
                    "PROCESS",
                    "REDUCE",
                    "USE",
                    "DISCARD",
                    "GRANT",
                    "REVOKE",
                    "EXPORT",
                    "IMPORT",
                    "BATCH" -> throw YdbError.unsupported(word + " at " + t.where());
            default -> {
                if (t.type() == Token.Type.PARAM && peekAt(1).is("=")) {
                    throw YdbError.unsupported("named expression $" + t.text() + " = … at " + t.where());
                }
                throw syntax(t, "expected a statement");
            }
        };
    }

    private Statement declare() {
        next();
        Token p = next();
        if (p.type() != Token.Type.PARAM) {
            throw syntax(p, "expected a $parameter");
        }
        expect("AS");
        return new Statement.Declare(p.text(), type());
    }

    private Statement create() {
        next();
        Token what = next();
        if (!what.is("TABLE")) {
            throw YdbError.unsupported("CREATE " + what.text().toUpperCase(Locale.ROOT) + " at " + what.where());
        }
        boolean ifNotExists = false;
        if (accept("IF")) {
            expect("NOT");
            expect("EXISTS");
            ifNotExists = true;
        }
        String table = identifier();
        expect("(");
        List<Statement.ColumnDef> columns = new ArrayList<>();
        List<Statement.IndexDef> indexes = new ArrayList<>();
        List<String> pk = null;
        do {
            if (accept("PRIMARY")) {
                expect("KEY");
                pk = nameList();
            } else if (peek().is("INDEX")) {
                indexes.add(index());
            } else if (peek().is("FAMILY") || peek().is("CHANGEFEED")) {
                throw YdbError.unsupported(peek().text().toUpperCase(Locale.ROOT) + " at " + peek().where());
            } else {
                columns.add(column());
            }
        } while (accept(","));
        expect(")");
        Statement.TtlDef ttl = peek().is("WITH") ? with() : null;
        if (peek().is("PARTITION")) {
            throw YdbError.unsupported("PARTITION BY at " + peek().where());
        }
        if (pk == null) {
            throw YdbError.generic("Primary key is required for table " + table);
        }
        return new Statement.CreateTable(table, ifNotExists, columns, pk, indexes, ttl);
    }

    private Statement.ColumnDef column() {
        String name = identifier();
        var type = type();
        boolean notNull = false;
        if (accept("NOT")) {
            expect("NULL");
            notNull = true;
        } else {
            accept("NULL");
        }
        if (peek().is("DEFAULT")) {
            throw YdbError.unsupported("DEFAULT at " + peek().where());
        }
        if (type.kind() == Kind.LIST || type.kind() == Kind.STRUCT) {
            throw YdbError.unsupported("column type " + type);
        }
        return new Statement.ColumnDef(name, notNull ? type.asRequired() : type.asOptional(), notNull);
    }

    private Statement.IndexDef index() {
        next();
        String name = identifier();
        expect("GLOBAL");
        if (peek().is("UNIQUE") || peek().is("LOCAL")) {
            throw YdbError.unsupported("INDEX … " + peek().text().toUpperCase(Locale.ROOT) + " at " + peek().where());
        }
        boolean async = false;
        if (accept("ASYNC")) {
            async = true;
        } else {
            accept("SYNC");
        }
        expect("ON");
        List<String> on = nameList();
        List<String> cover = accept("COVER") ? nameList() : List.of();
        if (peek().is("WITH")) {
            throw YdbError.unsupported("INDEX … WITH at " + peek().where());
        }
        return new Statement.IndexDef(name, async, on, cover);
    }

    private Statement.TtlDef with() {
        next();
        expect("(");
        Token key = next();
        if (!key.is("TTL")) {
            throw YdbError.unsupported("table setting " + key.text() + " at " + key.where());
        }
        expect("=");
        Token fn = next();
        if (!fn.is("Interval")) {
            throw syntax(fn, "expected Interval(\"PT…\")");
        }
        expect("(");
        Token literal = next();
        expect(")");
        expect("ON");
        String column = identifier();
        if (peek().is("AS")) {
            throw YdbError.unsupported("TTL … AS <unit> at " + peek().where());
        }
        if (peek().is(",")) {
            throw YdbError.unsupported("table setting after TTL at " + peek().where());
        }
        expect(")");
        try {
            return new Statement.TtlDef(Duration.parse(literal.text()).toNanos() / 1000, column);
        } catch (DateTimeParseException e) {
            throw syntax(literal, "bad interval " + literal.text());
        }
    }

    private Statement drop() {
        next();
        Token what = next();
        if (!what.is("TABLE")) {
            throw YdbError.unsupported("DROP " + what.text().toUpperCase(Locale.ROOT) + " at " + what.where());
        }
        boolean ifExists = false;
        if (accept("IF")) {
            expect("EXISTS");
            ifExists = true;
        }
        return new Statement.DropTable(identifier(), ifExists);
    }

    private Statement write() {
        Statement.WriteMode mode = Statement.WriteMode.valueOf(next().text().toUpperCase(Locale.ROOT));
        expect("INTO");
        String table = identifier();
        if (peek().is("SELECT")) {
            return new Statement.Write(mode, table, List.of(), List.of(), asTable());
        }
        List<String> columns = nameList();
        if (peek().is("SELECT")) {
            throw YdbError.unsupported(mode + " … (columns) SELECT at " + peek().where());
        }
        expect("VALUES");
        List<List<Expr>> rows = new ArrayList<>();
        do {
            expect("(");
            List<Expr> row = new ArrayList<>();
            do {
                row.add(expression());
            } while (accept(","));
            expect(")");
            if (row.size() != columns.size()) {
                throw YdbError.generic(
                        mode + " INTO " + table + ": " + columns.size() + " columns but " + row.size() + " values");
            }
            rows.add(row);
        } while (accept(","));
        if (peek().is("RETURNING") || peek().is("ON")) {
            throw YdbError.unsupported(mode + " … " + peek().text().toUpperCase(Locale.ROOT));
        }
        return new Statement.Write(mode, table, columns, rows, null);
    }

    private String asTable() {
        Token select = next();
        expect("*");
        expect("FROM");
        Token fn = next();
        if (!fn.is("AS_TABLE")) {
            throw YdbError.unsupported(
                    "INSERT/UPSERT/REPLACE … SELECT other than SELECT * FROM AS_TABLE($rows) at " + select.where());
        }
        expect("(");
        Token p = next();
        if (p.type() != Token.Type.PARAM) {
            throw syntax(p, "expected a $parameter");
        }
        expect(")");
        return p.text();
    }

    private Statement update() {
        next();
        String table = identifier();
        if (peek().is("ON")) {
            throw YdbError.unsupported("UPDATE … ON at " + peek().where());
        }
        expect("SET");
        List<String> columns = new ArrayList<>();
        List<Expr> values = new ArrayList<>();
        do {
            columns.add(identifier());
            expect("=");
            values.add(expression());
        } while (accept(","));
        Expr where = accept("WHERE") ? expression() : null;
        return new Statement.Update(table, columns, values, where);
    }

    private Statement delete() {
        next();
        expect("FROM");
        String table = identifier();
        if (peek().is("ON")) {
            throw YdbError.unsupported("DELETE … ON at " + peek().where());
        }
        Expr where = accept("WHERE") ? expression() : null;
        return new Statement.Delete(table, where);
    }
}
