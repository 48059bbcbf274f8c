package dev.egress.ydb.coordination.server;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import tech.ydb.proto.OperationProtos.Operation;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.YdbIssueMessage.IssueMessage;

/** YDB's unary-call envelope: every answer is a finished {@code Operation}, errors included (gRPC stays OK). */
final class Operations {

    private static final int SEVERITY_ERROR = 1;

    private Operations() {}

    static Operation success() {
        return Operation.newBuilder()
                .setReady(true)
                .setStatus(StatusCode.SUCCESS)
                .build();
    }

    static Operation success(Message result) {
        return Operation.newBuilder()
                .setReady(true)
                .setStatus(StatusCode.SUCCESS)
                .setResult(Any.pack(result))
                .build();
    }

    static Operation failure(StatusCode status, String message) {
        return Operation.newBuilder()
                .setReady(true)
                .setStatus(status)
                .addIssues(IssueMessage.newBuilder().setMessage(message).setSeverity(SEVERITY_ERROR))
                .build();
    }
}
