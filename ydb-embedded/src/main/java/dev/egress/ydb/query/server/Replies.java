package dev.egress.ydb.query.server;

import dev.egress.ydb.query.YdbError;
import java.util.List;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.YdbIssueMessage.IssueMessage;

/** Issues as YDB words them. */
final class Replies {

    private Replies() {}

    static List<IssueMessage> issues(YdbError e) {
        IssueMessage.Builder issue =
                IssueMessage.newBuilder().setMessage(e.getMessage()).setSeverity(1);
        if (e.issueCode() != 0) {
            issue.setIssueCode(e.issueCode());
        }
        if (e.issueCode() == YdbError.CONSTRAINT_VIOLATION) {
            issue.addIssues(IssueMessage.newBuilder()
                    .setMessage("Conflict with existing key.")
                    .setIssueCode(YdbError.CONSTRAINT_VIOLATION)
                    .setSeverity(1));
        }
        return List.of(issue.build());
    }

    static YdbError badSession(String id) {
        return new YdbError(StatusCode.BAD_SESSION, "Session not found: " + id);
    }

    static YdbError busy() {
        return new YdbError(StatusCode.SESSION_BUSY, "Pending previous query completion");
    }

    static YdbError txNotFound(String id) {
        return new YdbError(StatusCode.NOT_FOUND, YdbError.TX_NOT_FOUND, "Transaction not found: " + id);
    }
}
