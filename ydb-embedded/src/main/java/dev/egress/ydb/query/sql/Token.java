package dev.egress.ydb.query.sql;

/**
 * One lexical token.
 *
 * @param type   what it is
 * @param text   identifiers and keywords as written (backticks removed), parameters without {@code $}, the
 *               decoded contents of a string literal, the digits of a number
 * @param suffix a literal's type suffix ({@code u}, {@code ul}, {@code s}, {@code j} …), else empty
 * @param line   1-based line
 * @param column 1-based column
 */
public record Token(Type type, String text, String suffix, int line, int column) {

    /** Token kinds. */
    public enum Type {
        IDENT,
        QUOTED_IDENT,
        PARAM,
        INTEGER,
        FLOAT,
        STRING,
        SYMBOL,
        EOF
    }

    /** Is this the (case-insensitive) keyword or the exact symbol {@code s}? */
    public boolean is(String s) {
        return (type == Type.IDENT && text.equalsIgnoreCase(s)) || (type == Type.SYMBOL && text.equals(s));
    }

    public String where() {
        return line + ":" + column;
    }

    @Override
    public String toString() {
        return type == Type.EOF ? "end of query" : "'" + text + "'";
    }
}
