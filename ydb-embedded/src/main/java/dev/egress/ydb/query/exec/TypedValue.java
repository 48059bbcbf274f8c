package dev.egress.ydb.query.exec;

import dev.egress.ydb.query.value.YqlType;

/** A value with its YQL type (parameters, evaluated expressions). */
public record TypedValue(Object value, YqlType type) {}
