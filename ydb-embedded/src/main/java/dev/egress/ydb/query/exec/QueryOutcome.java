package dev.egress.ydb.query.exec;

import java.util.List;
import tech.ydb.proto.ValueProtos;
import tech.ydb.proto.YdbIssueMessage.IssueMessage;

/**
 * What a query text produced: one result set per SELECT (in statement order, empty ones included), warnings,
 * and the log position its effects must reach on disk before the answer goes out (-1: nothing to wait for).
 */
public record QueryOutcome(List<ValueProtos.ResultSet> resultSets, List<IssueMessage> warnings, long durableAt) {}
