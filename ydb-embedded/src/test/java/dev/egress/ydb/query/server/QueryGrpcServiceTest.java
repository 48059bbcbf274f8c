package dev.egress.ydb.query.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.ydb.query.store.Database;
import dev.egress.ydb.query.store.Limits;
import dev.egress.ydb.query.store.TableStats;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.query.YdbQuery;

/** The service called in-process, with observers that act the moment an answer ends, as a fast client does. */
class QueryGrpcServiceTest {

    private final QueryGrpcService service =
            new QueryGrpcService(new Database("/local", Limits.DEFAULT, null, new TableStats()));

    /** Records the parts of an ExecuteQuery answer and runs an action when it completes. */
    private static final class Parts implements StreamObserver<YdbQuery.ExecuteQueryResponsePart> {
        final List<YdbQuery.ExecuteQueryResponsePart> parts = new ArrayList<>();
        final Runnable onEnd;

        Parts(Runnable onEnd) {
            this.onEnd = onEnd;
        }

        @Override
        public void onNext(YdbQuery.ExecuteQueryResponsePart part) {
            parts.add(part);
        }

        @Override
        public void onError(Throwable t) {
            throw new AssertionError(t);
        }

        @Override
        public void onCompleted() {
            onEnd.run();
        }

        StatusCode status() {
            return parts.stream()
                    .map(YdbQuery.ExecuteQueryResponsePart::getStatus)
                    .filter(s -> s != StatusCode.SUCCESS)
                    .findFirst()
                    .orElse(StatusCode.SUCCESS);
        }
    }

    private String createSession() {
        List<YdbQuery.CreateSessionResponse> out = new ArrayList<>();
        service.createSession(YdbQuery.CreateSessionRequest.getDefaultInstance(), observer(out));
        return out.get(0).getSessionId();
    }

    private static YdbQuery.ExecuteQueryRequest select(String session) {
        return YdbQuery.ExecuteQueryRequest.newBuilder()
                .setSessionId(session)
                .setExecMode(YdbQuery.ExecMode.EXEC_MODE_EXECUTE)
                .setQueryContent(YdbQuery.QueryContent.newBuilder()
                        .setSyntax(YdbQuery.Syntax.SYNTAX_YQL_V1)
                        .setText("SELECT 1"))
                .build();
    }

    @Test
    void theSessionIsFreeOnceItsAnswerEnds() {
        String session = createSession();
        Parts second = new Parts(() -> {});
        Parts first = new Parts(() -> service.executeQuery(select(session), second));
        service.executeQuery(select(session), first);
        assertThat(first.status()).isEqualTo(StatusCode.SUCCESS);
        assertThat(second.status()).isEqualTo(StatusCode.SUCCESS);
    }

    @Test
    void aQueryOnAnUnknownSessionIsBadSession() {
        Parts parts = new Parts(() -> {});
        service.executeQuery(select("ydb://session/3?node_id=1&id=none"), parts);
        assertThat(parts.status()).isEqualTo(StatusCode.BAD_SESSION);
        assertThat(parts.parts.get(0).getIssues(0).getMessage()).startsWith("Session not found: ");
    }

    private static <T> StreamObserver<T> observer(List<T> into) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                into.add(value);
            }

            @Override
            public void onError(Throwable t) {
                throw new AssertionError(t);
            }

            @Override
            public void onCompleted() {}
        };
    }
}
