package dev.egress.ydb.query.sql;

import dev.egress.ydb.query.YdbError;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The SELECT statement of the subset. */
final class SelectParser {

    private final ExprParser p;

    SelectParser(ExprParser parser) {
        this.p = parser;
    }

    Statement.Select select() {
        p.expect("SELECT");
        if (p.peek().is("DISTINCT")) {
            throw YdbError.unsupported("SELECT DISTINCT at " + p.peek().where());
        }
        List<Statement.SelectItem> items = new ArrayList<>();
        if (!p.accept("*")) {
            do {
                Expr e = p.expression();
                String alias = p.accept("AS") ? p.identifier() : null;
                items.add(new Statement.SelectItem(e, alias));
            } while (p.accept(","));
        }
        String table = null;
        String view = null;
        if (p.accept("FROM")) {
            if (p.peek().is("AS_TABLE") || p.peek().is("(")) {
                throw YdbError.unsupported(
                        "SELECT FROM " + p.peek().text() + " at " + p.peek().where());
            }
            table = p.identifier();
            if (p.accept("VIEW")) {
                view = p.identifier();
            }
            if (p.accept("AS")) {
                p.identifier();
            }
            refuseClauses("JOIN", "INNER", "LEFT", "RIGHT", "CROSS", "FULL", "EXCLUSION", ",");
        }
        Expr where = p.accept("WHERE") ? p.expression() : null;
        refuseClauses("GROUP", "HAVING", "WINDOW", "UNION", "ASSUME", "SAMPLE", "TABLESAMPLE");
        List<Statement.Order> order = new ArrayList<>();
        if (p.accept("ORDER")) {
            p.expect("BY");
            do {
                Expr e = p.expression();
                boolean desc = p.accept("DESC");
                if (!desc) {
                    p.accept("ASC");
                }
                order.add(new Statement.Order(e, desc));
            } while (p.accept(","));
        }
        Expr limit = null;
        Expr offset = null;
        if (p.accept("LIMIT")) {
            limit = p.expression();
            if (p.accept("OFFSET")) {
                offset = p.expression();
            }
        }
        refuseClauses("UNION", "INTO");
        return new Statement.Select(items, table, view, where, order, limit, offset);
    }

    private void refuseClauses(String... words) {
        for (String w : words) {
            if (p.peek().is(w)) {
                String name = w.equals(",") ? "FROM with several tables" : w.toUpperCase(Locale.ROOT);
                throw YdbError.unsupported(name + " at " + p.peek().where());
            }
        }
    }
}
