package dev.egress.ydb.query.server;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.store.Database;
import io.grpc.stub.StreamObserver;
import java.util.List;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.ValueProtos;
import tech.ydb.proto.YdbQueryStats;
import tech.ydb.proto.query.YdbQuery;

/**
 * Writes an ExecuteQuery answer as YDB streams it: one or more parts per result set (indices in statement order,
 * columns in every part, empty sets too), then a trailing part with {@code tx_meta} (and {@code exec_stats} when
 * asked for); a failure is one part with its status and issues.
 */
final class QueryStreamer {

    private static final int PART_BYTES = 1 << 20;

    private final Database db;

    QueryStreamer(Database db) {
        this.db = db;
    }

    void send(
            YdbQuery.ExecuteQueryRequest request,
            QueryRunner.Answer answer,
            long started,
            StreamObserver<YdbQuery.ExecuteQueryResponsePart> out) {
        List<ValueProtos.ResultSet> sets = answer.outcome().resultSets();
        for (int i = 0; i < sets.size(); i++) {
            sendSet(i, sets.get(i), out);
        }
        YdbQuery.ExecuteQueryResponsePart.Builder last = YdbQuery.ExecuteQueryResponsePart.newBuilder()
                .setStatus(StatusCode.SUCCESS)
                .addAllIssues(answer.outcome().warnings())
                .setTxMeta(YdbQuery.TransactionMeta.newBuilder().setId(answer.txId()));
        if (request.getStatsModeValue() >= YdbQuery.StatsMode.STATS_MODE_BASIC_VALUE) {
            long micros = (System.nanoTime() - started) / 1000;
            last.setExecStats(YdbQueryStats.QueryStats.newBuilder()
                    .setTotalDurationUs(micros)
                    .setProcessCpuTimeUs(micros));
        }
        out.onNext(last.build());
        out.onCompleted();
    }

    private static void sendSet(
            int index, ValueProtos.ResultSet set, StreamObserver<YdbQuery.ExecuteQueryResponsePart> out) {
        ValueProtos.ResultSet.Builder part = ValueProtos.ResultSet.newBuilder().addAllColumns(set.getColumnsList());
        int bytes = 0;
        boolean sent = false;
        for (ValueProtos.Value row : set.getRowsList()) {
            part.addRows(row);
            bytes += row.getSerializedSize();
            if (bytes >= PART_BYTES) {
                out.onNext(part(index, part.build()));
                part = ValueProtos.ResultSet.newBuilder().addAllColumns(set.getColumnsList());
                bytes = 0;
                sent = true;
            }
        }
        if (!sent || part.getRowsCount() > 0) {
            out.onNext(part(index, part.build()));
        }
    }

    private static YdbQuery.ExecuteQueryResponsePart part(int index, ValueProtos.ResultSet rs) {
        return YdbQuery.ExecuteQueryResponsePart.newBuilder()
                .setStatus(StatusCode.SUCCESS)
                .setResultSetIndex(index)
                .setResultSet(rs)
                .build();
    }

    void fail(YdbError e, StreamObserver<YdbQuery.ExecuteQueryResponsePart> out) {
        if (e.status() != StatusCode.ABORTED) {
            db.stats().failed();
        }
        out.onNext(YdbQuery.ExecuteQueryResponsePart.newBuilder()
                .setStatus(e.status())
                .addAllIssues(Replies.issues(e))
                .build());
        out.onCompleted();
    }
}
