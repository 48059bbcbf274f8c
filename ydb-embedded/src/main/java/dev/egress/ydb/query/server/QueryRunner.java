package dev.egress.ydb.query.server;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.exec.Executor;
import dev.egress.ydb.query.exec.QueryOutcome;
import dev.egress.ydb.query.exec.TypedValue;
import dev.egress.ydb.query.sql.Parser;
import dev.egress.ydb.query.sql.Statement;
import dev.egress.ydb.query.store.Database;
import dev.egress.ydb.query.store.Transaction;
import dev.egress.ydb.query.store.TxMode;
import dev.egress.ydb.query.value.Values;
import dev.egress.ydb.query.value.YqlType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.ValueProtos;
import tech.ydb.proto.query.YdbQuery;

/**
 * An ExecuteQuery request's transaction handling (YDB's TransactionControl matrix): no tx_control runs an implicit
 * transaction over the text; {@code begin_tx} with {@code commit_tx} one that commits at the end; {@code begin_tx}
 * alone opens an interactive one; {@code tx_id} continues it. Single-shot transactions run with no commit in
 * between (they never abort); interactive ones are checked for lock conflicts at commit.
 */
final class QueryRunner {

    /** What the answer carries: the outcome and the transaction id to report ("" when none is open). */
    record Answer(QueryOutcome outcome, String txId) {}

    private final Database db;
    private final Executor executor;

    QueryRunner(Database db) {
        this.db = db;
        this.executor = new Executor(db);
    }

    Answer run(QuerySession session, YdbQuery.ExecuteQueryRequest request) {
        List<Statement> statements = Parser.parse(request.getQueryContent().getText());
        Map<String, TypedValue> params = Executor.bind(statements, params(request));
        boolean hasTx = request.hasTxControl();
        if (Executor.ddl(statements)) {
            if (hasTx) {
                throw new YdbError(
                        StatusCode.PRECONDITION_FAILED, "Scheme operations cannot be executed inside transaction");
            }
            long position = executor.runDdl(statements);
            return new Answer(new QueryOutcome(List.of(), List.of(), position), "");
        }
        YdbQuery.TransactionControl control = request.getTxControl();
        boolean commit = !hasTx || control.getCommitTx();
        Transaction tx;
        if (!hasTx) {
            tx = db.begin(TxMode.IMPLICIT);
        } else if (control.hasBeginTx()) {
            TxMode mode = mode(control.getBeginTx());
            if (!commit && (mode == TxMode.ONLINE_RO || mode == TxMode.STALE_RO)) {
                throw YdbError.badRequest("Failed to begin transaction: open transactions not supported for"
                        + " transaction mode " + mode + ", use tx_control field in ExecuteDataQueryRequest to begin"
                        + " transaction with this mode.");
            }
            tx = db.begin(mode);
        } else {
            tx = session.tx();
            if (tx == null || !tx.id().equals(control.getTxId())) {
                throw Replies.txNotFound(control.getTxId());
            }
        }
        boolean interactive = !commit || (hasTx && !control.hasBeginTx());
        if (!interactive) {
            return db.exclusive(() -> {
                try {
                    QueryOutcome out = executor.runData(statements, params, tx);
                    return new Answer(withPosition(out, db.commit(tx)), "");
                } finally {
                    db.finish(tx);
                }
            });
        }
        session.tx(tx);
        try {
            QueryOutcome out = executor.runData(statements, params, tx);
            if (!commit) {
                return new Answer(out, tx.id());
            }
            session.tx(null);
            return new Answer(withPosition(out, db.commit(tx)), "");
        } catch (RuntimeException e) {
            session.tx(null); // an error invalidates the transaction (YDB: later use is NOT_FOUND)
            db.finish(tx);
            throw e;
        }
    }

    private static QueryOutcome withPosition(QueryOutcome out, long position) {
        return new QueryOutcome(out.resultSets(), out.warnings(), position);
    }

    static TxMode mode(YdbQuery.TransactionSettings settings) {
        return switch (settings.getTxModeCase()) {
            case SERIALIZABLE_READ_WRITE -> TxMode.SERIALIZABLE_RW;
            case SNAPSHOT_READ_ONLY -> TxMode.SNAPSHOT_RO;
            case ONLINE_READ_ONLY -> TxMode.ONLINE_RO;
            case STALE_READ_ONLY -> TxMode.STALE_RO;
            case TXMODE_NOT_SET -> throw YdbError.badRequest("Invalid tx_settings");
            default -> throw YdbError.unsupported("transaction mode " + settings.getTxModeCase());
        };
    }

    private static Map<String, TypedValue> params(YdbQuery.ExecuteQueryRequest request) {
        Map<String, TypedValue> out = new HashMap<>();
        for (Map.Entry<String, ValueProtos.TypedValue> e :
                request.getParametersMap().entrySet()) {
            String name = e.getKey().startsWith("$") ? e.getKey().substring(1) : e.getKey();
            YqlType type = Values.fromProto(e.getValue().getType());
            out.put(name, new TypedValue(Values.fromProto(e.getValue().getValue(), type), type));
        }
        return out;
    }
}
