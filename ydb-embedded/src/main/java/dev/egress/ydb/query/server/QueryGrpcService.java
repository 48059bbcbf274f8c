package dev.egress.ydb.query.server;

import dev.egress.ydb.query.YdbError;
import dev.egress.ydb.query.store.Database;
import dev.egress.ydb.query.store.Transaction;
import dev.egress.ydb.query.store.TxMode;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.query.YdbQuery;
import tech.ydb.proto.query.v1.QueryServiceGrpc;

/**
 * {@code Ydb.Query.V1.QueryService}: sessions, their attach streams, ExecuteQuery and explicit transactions. Every
 * call ends with gRPC OK; YDB's status travels in the message, as YDB sends it.
 */
public final class QueryGrpcService extends QueryServiceGrpc.QueryServiceImplBase {

    private static final Logger log = LoggerFactory.getLogger(QueryGrpcService.class);

    private final Database db;
    private final QueryRunner runner;
    private final QueryStreamer streamer;
    private final Map<String, QuerySession> sessions = new ConcurrentHashMap<>();

    public QueryGrpcService(Database db) {
        this.db = db;
        this.runner = new QueryRunner(db);
        this.streamer = new QueryStreamer(db);
    }

    /** Open sessions (metrics). */
    public int sessionCount() {
        return sessions.size();
    }

    @Override
    public void createSession(
            YdbQuery.CreateSessionRequest request, StreamObserver<YdbQuery.CreateSessionResponse> out) {
        // node_id in the id equals the node id discovery advertises, so the SDK routes the session's calls here.
        String id = "ydb://session/3?node_id=1&id=" + UUID.randomUUID();
        sessions.put(id, new QuerySession(id));
        out.onNext(YdbQuery.CreateSessionResponse.newBuilder()
                .setStatus(StatusCode.SUCCESS)
                .setSessionId(id)
                .setNodeId(1)
                .build());
        out.onCompleted();
    }

    @Override
    public void attachSession(YdbQuery.AttachSessionRequest request, StreamObserver<YdbQuery.SessionState> out) {
        String id = request.getSessionId();
        QuerySession session = sessions.get(id);
        YdbError error = id.isEmpty()
                ? YdbError.badRequest("Empty session id")
                : session == null ? Replies.badSession(id) : null;
        if (error == null && !session.attach(out)) {
            error = Replies.busy();
        }
        if (error != null) {
            out.onNext(YdbQuery.SessionState.newBuilder()
                    .setStatus(error.status())
                    .addAllIssues(Replies.issues(error))
                    .build());
            out.onCompleted();
            return;
        }
        // The client going away closes the session, as in YDB (its transaction rolls back).
        ((ServerCallStreamObserver<YdbQuery.SessionState>) out).setOnCancelHandler(() -> close(id, false));
    }

    @Override
    public void deleteSession(
            YdbQuery.DeleteSessionRequest request, StreamObserver<YdbQuery.DeleteSessionResponse> out) {
        boolean known = close(request.getSessionId(), true);
        YdbQuery.DeleteSessionResponse.Builder reply = YdbQuery.DeleteSessionResponse.newBuilder();
        if (known) {
            reply.setStatus(StatusCode.SUCCESS);
        } else {
            YdbError e = Replies.badSession(request.getSessionId());
            reply.setStatus(e.status()).addAllIssues(Replies.issues(e));
        }
        out.onNext(reply.build());
        out.onCompleted();
    }

    private boolean close(String id, boolean endStream) {
        QuerySession session = sessions.remove(id);
        if (session == null) {
            return false;
        }
        Transaction open = session.close(endStream);
        if (open != null) {
            db.finish(open);
            db.stats().rolledBack();
        }
        return true;
    }

    @Override
    public void executeQuery(
            YdbQuery.ExecuteQueryRequest request, StreamObserver<YdbQuery.ExecuteQueryResponsePart> out) {
        long started = System.nanoTime();
        QuerySession session = null;
        QueryRunner.Answer answer = null;
        YdbError error = null;
        try {
            validate(request);
            session = enter(request.getSessionId());
            answer = runner.run(session, request);
            db.awaitDurable(answer.outcome().durableAt());
        } catch (YdbError e) {
            error = e;
        } catch (RuntimeException e) {
            log.warn("Query failed unexpectedly: {}", request.getQueryContent().getText(), e);
            error = new YdbError(StatusCode.INTERNAL_ERROR, String.valueOf(e));
        } finally {
            // Free the session before the answer ends: a client reusing it at once must not meet SESSION_BUSY.
            if (session != null) {
                session.leave();
            }
        }
        if (error != null) {
            streamer.fail(error, out);
        } else {
            streamer.send(request, answer, started, out);
        }
        db.maybeCompact();
    }

    private static void validate(YdbQuery.ExecuteQueryRequest request) {
        if (request.getSessionId().isEmpty()) {
            throw YdbError.badRequest("Empty session id");
        }
        YdbQuery.ExecMode mode = request.getExecMode();
        if (mode != YdbQuery.ExecMode.EXEC_MODE_EXECUTE) {
            throw mode == YdbQuery.ExecMode.EXEC_MODE_VALIDATE || mode == YdbQuery.ExecMode.EXEC_MODE_EXPLAIN
                    ? YdbError.unsupported("exec_mode " + mode)
                    : YdbError.badRequest("Unexpected query mode");
        }
        if (!request.hasQueryContent()) {
            throw YdbError.badRequest("Unexpected query option");
        }
        if (request.getQueryContent().getText().isEmpty()) {
            throw YdbError.badRequest("Empty query text");
        }
        if (request.getQueryContent().getSyntax() == YdbQuery.Syntax.SYNTAX_PG) {
            throw YdbError.unsupported("PostgreSQL syntax");
        }
        if (request.hasTxControl()) {
            YdbQuery.TransactionControl c = request.getTxControl();
            if (!c.hasBeginTx() && c.getTxId().isEmpty()) {
                throw YdbError.badRequest("Invalid tx_control settings");
            }
        }
    }

    private QuerySession enter(String id) {
        QuerySession session = sessions.get(id);
        if (session == null) {
            throw Replies.badSession(id);
        }
        if (!session.tryEnter()) {
            throw Replies.busy();
        }
        return session;
    }

    @Override
    public void beginTransaction(
            YdbQuery.BeginTransactionRequest request, StreamObserver<YdbQuery.BeginTransactionResponse> out) {
        unary(
                out,
                request.getSessionId(),
                session -> {
                    if (!request.hasTxSettings()) {
                        throw YdbError.badRequest("Empty tx_settings.");
                    }
                    TxMode mode = QueryRunner.mode(request.getTxSettings());
                    if (mode == TxMode.ONLINE_RO || mode == TxMode.STALE_RO) {
                        throw YdbError.badRequest("Failed to begin transaction: open transactions not supported for"
                                + " transaction mode " + mode
                                + ", use tx_control field in ExecuteDataQueryRequest to begin"
                                + " transaction with this mode.");
                    }
                    Transaction previous = session.tx();
                    if (previous != null) {
                        db.finish(previous);
                    }
                    Transaction tx = db.begin(mode);
                    session.tx(tx);
                    return YdbQuery.BeginTransactionResponse.newBuilder()
                            .setStatus(StatusCode.SUCCESS)
                            .setTxMeta(YdbQuery.TransactionMeta.newBuilder().setId(tx.id()))
                            .build();
                },
                (status, issues) -> YdbQuery.BeginTransactionResponse.newBuilder()
                        .setStatus(status)
                        .addAllIssues(issues)
                        .build());
    }

    @Override
    public void commitTransaction(
            YdbQuery.CommitTransactionRequest request, StreamObserver<YdbQuery.CommitTransactionResponse> out) {
        unary(
                out,
                request.getSessionId(),
                session -> {
                    Transaction tx = finishTx(session, request.getTxId());
                    db.awaitDurable(db.commit(tx));
                    return YdbQuery.CommitTransactionResponse.newBuilder()
                            .setStatus(StatusCode.SUCCESS)
                            .build();
                },
                (status, issues) -> YdbQuery.CommitTransactionResponse.newBuilder()
                        .setStatus(status)
                        .addAllIssues(issues)
                        .build());
    }

    @Override
    public void rollbackTransaction(
            YdbQuery.RollbackTransactionRequest request, StreamObserver<YdbQuery.RollbackTransactionResponse> out) {
        unary(
                out,
                request.getSessionId(),
                session -> {
                    db.finish(finishTx(session, request.getTxId()));
                    db.stats().rolledBack();
                    return YdbQuery.RollbackTransactionResponse.newBuilder()
                            .setStatus(StatusCode.SUCCESS)
                            .build();
                },
                (status, issues) -> YdbQuery.RollbackTransactionResponse.newBuilder()
                        .setStatus(status)
                        .addAllIssues(issues)
                        .build());
    }

    private static Transaction finishTx(QuerySession session, String txId) {
        if (txId.isEmpty()) {
            throw YdbError.badRequest("Empty transaction id.");
        }
        Transaction tx = session.tx();
        if (tx == null || !tx.id().equals(txId)) {
            throw Replies.txNotFound(txId);
        }
        session.tx(null); // after commit or rollback the id is forgotten (a second commit: NOT_FOUND)
        return tx;
    }

    /** An error reply of a unary call. */
    private interface ErrorReply<T> {
        T build(StatusCode status, Iterable<tech.ydb.proto.YdbIssueMessage.IssueMessage> issues);
    }

    private <T> void unary(
            StreamObserver<T> out, String sessionId, Function<QuerySession, T> work, ErrorReply<T> error) {
        QuerySession session = null;
        T reply;
        try {
            if (sessionId.isEmpty()) {
                throw YdbError.badRequest("Empty session id");
            }
            session = enter(sessionId);
            reply = work.apply(session);
        } catch (YdbError e) {
            reply = error.build(e.status(), Replies.issues(e));
        } finally {
            if (session != null) {
                session.leave();
            }
        }
        out.onNext(reply);
        out.onCompleted();
    }
}
