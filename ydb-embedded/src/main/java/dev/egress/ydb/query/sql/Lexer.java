package dev.egress.ydb.query.sql;

import dev.egress.ydb.query.YdbError;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * YQL's lexer for the subset: identifiers (backticked names too), {@code $params}, integer/float/string literals
 * with YQL's type suffixes, {@code '…'} and {@code "…"} strings with C escapes, {@code @@…@@} strings,
 * {@code --} and {@code /* *}{@code /} comments, and punctuation.
 */
public final class Lexer {

    private static final String TWO_CHAR = "<=>=!=<>==||";
    private static final String ONE_CHAR = "(),;=<>+-*/%.:?[]{}!|&";

    private final String text;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;
    private int line = 1;
    private int lineStart;

    private Lexer(String text) {
        this.text = text;
    }

    /** Splits a query text into tokens, ending with an EOF token. */
    public static List<Token> tokenize(String text) {
        Lexer lexer = new Lexer(text);
        lexer.run();
        return lexer.tokens;
    }

    private void run() {
        while (true) {
            skipSpaceAndComments();
            if (pos >= text.length()) {
                tokens.add(new Token(Token.Type.EOF, "", "", line, col()));
                return;
            }
            char c = text.charAt(pos);
            int startCol = col();
            if (Character.isLetter(c) || c == '_') {
                int s = pos;
                while (pos < text.length()
                        && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
                    pos++;
                }
                tokens.add(new Token(Token.Type.IDENT, text.substring(s, pos), "", line, startCol));
            } else if (c == '`') {
                tokens.add(new Token(Token.Type.QUOTED_IDENT, quoted('`'), "", line, startCol));
            } else if (c == '$') {
                pos++;
                int s = pos;
                while (pos < text.length()
                        && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
                    pos++;
                }
                tokens.add(new Token(Token.Type.PARAM, text.substring(s, pos), "", line, startCol));
            } else if (Character.isDigit(c)) {
                number(startCol);
            } else if (c == '\'' || c == '"') {
                String s = quoted(c);
                tokens.add(new Token(Token.Type.STRING, s, suffix(), line, startCol));
            } else if (text.startsWith("@@", pos)) {
                tokens.add(new Token(Token.Type.STRING, multiline(), suffix(), line, startCol));
            } else {
                symbol(startCol);
            }
        }
    }

    private void symbol(int startCol) {
        if (pos + 1 < text.length()) {
            String two = text.substring(pos, pos + 2);
            int at = TWO_CHAR.indexOf(two);
            if (at >= 0 && at % 2 == 0) {
                pos += 2;
                tokens.add(new Token(Token.Type.SYMBOL, two, "", line, startCol));
                return;
            }
        }
        char c = text.charAt(pos);
        if (ONE_CHAR.indexOf(c) < 0) {
            throw YdbError.generic(line + ":" + startCol + ": Unexpected character '" + c + "'");
        }
        pos++;
        tokens.add(new Token(Token.Type.SYMBOL, String.valueOf(c), "", line, startCol));
    }

    private void number(int startCol) {
        int s = pos;
        boolean isFloat = false;
        if (text.startsWith("0x", pos) || text.startsWith("0X", pos)) {
            pos += 2;
            while (pos < text.length() && Character.digit(text.charAt(pos), 16) >= 0) {
                pos++;
            }
        } else {
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                pos++;
            }
            if (pos + 1 < text.length() && text.charAt(pos) == '.' && Character.isDigit(text.charAt(pos + 1))) {
                isFloat = true;
                pos++;
                while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                    pos++;
                }
            }
        }
        String digits = text.substring(s, pos);
        tokens.add(new Token(isFloat ? Token.Type.FLOAT : Token.Type.INTEGER, digits, suffix(), line, startCol));
    }

    private String suffix() {
        int s = pos;
        while (pos < text.length() && Character.isLetter(text.charAt(pos))) {
            pos++;
        }
        return text.substring(s, pos).toLowerCase(Locale.ROOT);
    }

    private String quoted(char quote) {
        StringBuilder out = new StringBuilder();
        int startLine = line;
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw YdbError.generic(startLine + ": Unterminated quoted literal");
            }
            char c = text.charAt(pos++);
            if (c == quote) {
                return out.toString();
            }
            if (c == '\\' && pos < text.length()) {
                char e = text.charAt(pos++);
                out.append(
                        switch (e) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            case 'r' -> '\r';
                            case '0' -> '\0';
                            default -> e;
                        });
            } else {
                if (c == '\n') {
                    newLine();
                }
                out.append(c);
            }
        }
    }

    private String multiline() {
        StringBuilder out = new StringBuilder();
        pos += 2;
        while (true) {
            int end = text.indexOf("@@", pos);
            if (end < 0) {
                throw YdbError.generic(line + ": Unterminated @@ literal");
            }
            out.append(text, pos, end);
            pos = end + 2;
            if (text.startsWith("@@", pos)) { // @@@@ stands for @@
                out.append("@@");
                pos += 2;
            } else {
                return out.toString();
            }
        }
    }

    private void skipSpaceAndComments() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '\n') {
                pos++;
                newLine();
            } else if (Character.isWhitespace(c)) {
                pos++;
            } else if (text.startsWith("--", pos)) {
                while (pos < text.length() && text.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (text.startsWith("/*", pos)) {
                int end = text.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw YdbError.generic(line + ": Unterminated comment");
                }
                for (int i = pos; i < end; i++) {
                    if (text.charAt(i) == '\n') {
                        line++;
                        lineStart = i + 1;
                    }
                }
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private void newLine() {
        line++;
        lineStart = pos;
    }

    private int col() {
        return pos - lineStart + 1;
    }
}
