package dev.egress.ydb.query.sql;

import dev.egress.ydb.query.value.YqlType;
import java.util.List;

/** An expression of the subset. */
public sealed interface Expr {

    /** A literal with its YQL type (an unsuffixed integer is Int32 if it fits, a quoted string is String). */
    record Literal(Object value, YqlType type) implements Expr {}

    /** {@code $name} (stored without the dollar). */
    record Param(String name) implements Expr {}

    /** A column of the table read (an optional qualifier {@code a.col} is dropped). */
    record Column(String name) implements Expr {}

    /** {@code l op r}: arithmetic {@code + - * / %}, comparison {@code = != < <= > >=}, {@code AND}, {@code OR}. */
    record Binary(String op, Expr left, Expr right) implements Expr {}

    /** {@code NOT e}, {@code -e}. */
    record Unary(String op, Expr operand) implements Expr {}

    /** {@code e IS [NOT] NULL}. */
    record IsNull(Expr operand, boolean negated) implements Expr {}

    /** {@code e [NOT] IN list}, the list a parameter or a parenthesised list of expressions. */
    record In(Expr operand, Expr list, boolean negated) implements Expr {}

    /** {@code (a, b, …)} on the right of IN. */
    record Tuple(List<Expr> items) implements Expr {}

    /** A built-in call, e.g. {@code Timestamp("…")}, {@code Interval("PT1H")}, {@code CurrentUtcTimestamp()}. */
    record Call(String name, List<Expr> args) implements Expr {}

    /** {@code CAST(e AS T)}. */
    record Cast(Expr operand, YqlType type) implements Expr {}
}
