package dev.egress.ydb.query.sql;

import com.google.protobuf.ByteString;
import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.value.Kind;
import dev.egress.ydb.query.value.YqlType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Recursive descent over tokens: expressions (by precedence), types, and the cursor the statement parser uses. */
class ExprParser {

    private static final Set<String> COMPARISONS = Set.of("=", "==", "!=", "<>", "<", "<=", ">", ">=");
    private static final Set<String> RESERVED = Set.of(
            "FROM", "WHERE", "ORDER", "LIMIT", "OFFSET", "AS", "VIEW", "AND", "OR", "NOT", "IS", "IN", "ON", "SELECT",
            "VALUES", "SET", "GROUP", "HAVING", "JOIN", "INNER", "LEFT", "RIGHT", "UNION", "ASC", "DESC");

    private final List<Token> tokens;
    private int pos;

    ExprParser(List<Token> tokens) {
        this.tokens = tokens;
    }

    // ---- cursor

    Token peek() {
        return tokens.get(pos);
    }

    Token peekAt(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    Token next() {
        Token t = tokens.get(pos);
        if (t.type() != Token.Type.EOF) {
            pos++;
        }
        return t;
    }

    boolean accept(String s) {
        if (peek().is(s)) {
            pos++;
            return true;
        }
        return false;
    }

    Token expect(String s) {
        Token t = next();
        if (!t.is(s)) {
            throw syntax(t, "expected " + s);
        }
        return t;
    }

    String identifier() {
        Token t = next();
        if (t.type() == Token.Type.IDENT || t.type() == Token.Type.QUOTED_IDENT) {
            return t.text();
        }
        throw syntax(t, "expected a name");
    }

    List<String> nameList() {
        expect("(");
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier());
        } while (accept(","));
        expect(")");
        return names;
    }

    static YdbError syntax(Token at, String problem) {
        return YdbError.generic(at.where() + ": Syntax error: " + problem + ", got " + at);
    }

    // ---- expressions

    Expr expression() {
        Expr left = and();
        while (accept("OR")) {
            left = new Expr.Binary("OR", left, and());
        }
        return left;
    }

    private Expr and() {
        Expr left = not();
        while (accept("AND")) {
            left = new Expr.Binary("AND", left, not());
        }
        return left;
    }

    private Expr not() {
        if (accept("NOT")) {
            return new Expr.Unary("NOT", not());
        }
        return comparison();
    }

    private Expr comparison() {
        Expr left = additive();
        Token t = peek();
        if (t.type() == Token.Type.SYMBOL && COMPARISONS.contains(t.text())) {
            next();
            String op = t.text().equals("==") ? "=" : t.text().equals("<>") ? "!=" : t.text();
            return new Expr.Binary(op, left, additive());
        }
        if (accept("IS")) {
            boolean negated = accept("NOT");
            expect("NULL");
            return new Expr.IsNull(left, negated);
        }
        boolean negated = peek().is("NOT") && peekAt(1).is("IN");
        if (negated) {
            next();
        }
        if (accept("IN")) {
            return new Expr.In(left, inList(), negated);
        }
        if (peek().is("BETWEEN") || peek().is("LIKE") || peek().is("REGEXP") || peek().is("MATCH")) {
            throw YdbError.unsupported(peek().text().toUpperCase(Locale.ROOT) + " at " + peek().where());
        }
        return left;
    }

    private Expr inList() {
        if (peek().is("(")) {
            next();
            if (peek().is("SELECT")) {
                throw YdbError.unsupported("IN with a subquery at " + peek().where());
            }
            List<Expr> items = new ArrayList<>();
            do {
                items.add(expression());
            } while (accept(","));
            expect(")");
            return new Expr.Tuple(items);
        }
        return additive();
    }

    private Expr additive() {
        Expr left = multiplicative();
        while (peek().is("+") || peek().is("-") || peek().is("||")) {
            String op = next().text();
            if (op.equals("||")) {
                throw YdbError.unsupported("string concatenation (||) at " + peek().where());
            }
            left = new Expr.Binary(op, left, multiplicative());
        }
        return left;
    }

    private Expr multiplicative() {
        Expr left = unary();
        while (peek().is("*") || peek().is("/") || peek().is("%")) {
            String op = next().text();
            left = new Expr.Binary(op, left, unary());
        }
        return left;
    }

    private Expr unary() {
        if (accept("-")) {
            return new Expr.Unary("-", unary());
        }
        return primary();
    }

    private Expr primary() {
        Token t = next();
        switch (t.type()) {
            case INTEGER:
                return integer(t);
            case FLOAT:
                return new Expr.Literal(Double.parseDouble(t.text()), YqlType.of(Kind.DOUBLE));
            case STRING:
                return string(t);
            case PARAM:
                return new Expr.Param(t.text());
            case QUOTED_IDENT:
                return column(t.text());
            case IDENT:
                return word(t);
            default:
                if (t.is("(")) {
                    if (peek().is("SELECT")) {
                        throw YdbError.unsupported("subquery at " + t.where());
                    }
                    Expr e = expression();
                    expect(")");
                    return e;
                }
                throw syntax(t, "expected an expression");
        }
    }

    private Expr word(Token t) {
        if (t.is("NULL")) {
            return new Expr.Literal(null, YqlType.of(Kind.NULL));
        }
        if (t.is("TRUE") || t.is("FALSE")) {
            return new Expr.Literal(t.is("TRUE"), YqlType.of(Kind.BOOL));
        }
        if (t.is("CAST")) {
            expect("(");
            Expr e = expression();
            expect("AS");
            YqlType type = type();
            expect(")");
            return new Expr.Cast(e, type);
        }
        if (t.is("CASE") || t.is("EXISTS")) {
            throw YdbError.unsupported(t.text().toUpperCase(Locale.ROOT) + " at " + t.where());
        }
        if (RESERVED.contains(t.text().toUpperCase(Locale.ROOT))) {
            throw syntax(t, "expected an expression");
        }
        if (peek().is("(")) {
            next();
            List<Expr> args = new ArrayList<>();
            if (!peek().is(")")) {
                do {
                    args.add(peek().is("*") ? starArg() : expression());
                } while (accept(","));
            }
            expect(")");
            return new Expr.Call(t.text(), args);
        }
        return column(t.text());
    }

    private Expr starArg() {
        next();
        return new Expr.Column("*");
    }

    private Expr column(String first) {
        if (accept(".")) { // a.col: the one table's alias
            return new Expr.Column(identifier());
        }
        return new Expr.Column(first);
    }

    private static Expr integer(Token t) {
        String digits = t.text();
        long v;
        try {
            v = digits.startsWith("0x") || digits.startsWith("0X")
                    ? Long.parseUnsignedLong(digits.substring(2), 16)
                    : Long.parseUnsignedLong(digits);
        } catch (NumberFormatException e) {
            throw syntax(t, "integer literal out of range");
        }
        Kind kind = switch (t.suffix()) {
            case "" -> v >= 0 && v <= Integer.MAX_VALUE ? Kind.INT32 : v >= 0 ? Kind.INT64 : Kind.UINT64;
            case "l" -> Kind.INT64;
            case "s" -> Kind.INT16;
            case "t" -> Kind.INT8;
            case "u" -> Kind.UINT32;
            case "ul" -> Kind.UINT64;
            case "us" -> Kind.UINT16;
            case "ut" -> Kind.UINT8;
            default -> throw syntax(t, "unknown integer suffix " + t.suffix());
        };
        return new Expr.Literal(v, YqlType.of(kind));
    }

    private static Expr string(Token t) {
        return switch (t.suffix()) {
            case "", "s" ->
                new Expr.Literal(
                        ByteString.copyFrom(t.text().getBytes(StandardCharsets.UTF_8)), YqlType.of(Kind.STRING));
            case "u" -> new Expr.Literal(t.text(), YqlType.of(Kind.UTF8));
            case "j" -> new Expr.Literal(t.text(), YqlType.of(Kind.JSON));
            default -> throw YdbError.unsupported("string literal suffix '" + t.suffix() + "' at " + t.where());
        };
    }

    // ---- types

    YqlType type() {
        Token t = next();
        if (t.type() != Token.Type.IDENT) {
            throw syntax(t, "expected a type");
        }
        YqlType type;
        if (t.is("Optional")) {
            expect("<");
            type = type().asOptional();
            expect(">");
        } else if (t.is("List")) {
            expect("<");
            type = YqlType.list(type());
            expect(">");
        } else if (t.is("Struct")) {
            type = struct();
        } else {
            Kind kind = Kind.byName(t.text());
            if (kind == null || !kind.primitive()) {
                throw YdbError.unsupported("type " + t.text() + " at " + t.where());
            }
            type = YqlType.of(kind);
        }
        return accept("?") ? type.asOptional() : type;
    }

    private YqlType struct() {
        expect("<");
        Map<String, YqlType> members = new LinkedHashMap<>();
        do {
            Token name = next();
            if (name.type() == Token.Type.EOF || name.is(">")) {
                throw syntax(name, "expected a member name");
            }
            expect(":");
            members.put(name.text(), type());
        } while (accept(","));
        expect(">");
        return YqlType.struct(members);
    }
}
