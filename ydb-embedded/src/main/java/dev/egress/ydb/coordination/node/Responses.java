package dev.egress.ydb.coordination.node;

import java.util.List;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.YdbIssueMessage.IssueMessage;
import tech.ydb.proto.coordination.SemaphoreDescription;
import tech.ydb.proto.coordination.SessionRequest;
import tech.ydb.proto.coordination.SessionResponse;

/** Builders for the session stream's responses, so that the state machine reads as YDB's transactions do. */
public final class Responses {

    private Responses() {}

    /** One issue carrying only its message, as YDB's session actor and coordination tablet write them. */
    public static IssueMessage issue(String message) {
        return IssueMessage.newBuilder().setMessage(message).build();
    }

    /** {@code failure{status, issues}}: a connection-level error, always the last message of a stream. */
    public static SessionResponse failure(StatusCode status, String message) {
        return SessionResponse.newBuilder()
                .setFailure(
                        SessionResponse.Failure.newBuilder().setStatus(status).addIssues(issue(message)))
                .build();
    }

    static SessionResponse started(long sessionId) {
        // YDB fills only session_id (not timeout_millis).
        return SessionResponse.newBuilder()
                .setSessionStarted(SessionResponse.SessionStarted.newBuilder().setSessionId(sessionId))
                .build();
    }

    static SessionResponse stopped(long sessionId) {
        return SessionResponse.newBuilder()
                .setSessionStopped(SessionResponse.SessionStopped.newBuilder().setSessionId(sessionId))
                .build();
    }

    static SessionResponse acquired(long reqId, boolean acquired) {
        return SessionResponse.newBuilder()
                .setAcquireSemaphoreResult(SessionResponse.AcquireSemaphoreResult.newBuilder()
                        .setReqId(reqId)
                        .setStatus(StatusCode.SUCCESS)
                        .setAcquired(acquired))
                .build();
    }

    static SessionResponse acquireFailed(long reqId, StatusCode status, String message) {
        return SessionResponse.newBuilder()
                .setAcquireSemaphoreResult(SessionResponse.AcquireSemaphoreResult.newBuilder()
                        .setReqId(reqId)
                        .setStatus(status)
                        .addIssues(issue(message)))
                .build();
    }

    static SessionResponse pending(long reqId) {
        return SessionResponse.newBuilder()
                .setAcquireSemaphorePending(
                        SessionResponse.AcquireSemaphorePending.newBuilder().setReqId(reqId))
                .build();
    }

    static SessionResponse released(long reqId, boolean released) {
        return SessionResponse.newBuilder()
                .setReleaseSemaphoreResult(SessionResponse.ReleaseSemaphoreResult.newBuilder()
                        .setReqId(reqId)
                        .setStatus(StatusCode.SUCCESS)
                        .setReleased(released))
                .build();
    }

    static SessionResponse described(long reqId, SemaphoreDescription description, boolean watchAdded) {
        return SessionResponse.newBuilder()
                .setDescribeSemaphoreResult(SessionResponse.DescribeSemaphoreResult.newBuilder()
                        .setReqId(reqId)
                        .setStatus(StatusCode.SUCCESS)
                        .setSemaphoreDescription(description)
                        .setWatchAdded(watchAdded))
                .build();
    }

    static SessionResponse changed(long reqId, boolean dataChanged, boolean ownersChanged) {
        return SessionResponse.newBuilder()
                .setDescribeSemaphoreChanged(SessionResponse.DescribeSemaphoreChanged.newBuilder()
                        .setReqId(reqId)
                        .setDataChanged(dataChanged)
                        .setOwnersChanged(ownersChanged))
                .build();
    }

    /** The SUCCESS result of a create, update or delete request. */
    static SessionResponse ok(SessionRequest request) {
        return result(request, StatusCode.SUCCESS, null);
    }

    /**
     * The error result matching the request's kind (e.g. {@code create_semaphore_result} for a
     * {@code create_semaphore}), carrying the request's req_id.
     */
    static SessionResponse error(SessionRequest request, StatusCode status, String message) {
        return result(request, status, message);
    }

    private static SessionResponse result(SessionRequest request, StatusCode status, String message) {
        SessionResponse.Builder response = SessionResponse.newBuilder();
        var issues = message == null ? List.<IssueMessage>of() : List.of(issue(message));
        switch (request.getRequestCase()) {
            case ACQUIRE_SEMAPHORE -> {
                response.setAcquireSemaphoreResult(SessionResponse.AcquireSemaphoreResult.newBuilder()
                        .setReqId(request.getAcquireSemaphore().getReqId())
                        .setStatus(status)
                        .addAllIssues(issues));
            }
            case RELEASE_SEMAPHORE -> {
                response.setReleaseSemaphoreResult(SessionResponse.ReleaseSemaphoreResult.newBuilder()
                        .setReqId(request.getReleaseSemaphore().getReqId())
                        .setStatus(status)
                        .addAllIssues(issues));
            }
            case DESCRIBE_SEMAPHORE -> {
                response.setDescribeSemaphoreResult(SessionResponse.DescribeSemaphoreResult.newBuilder()
                        .setReqId(request.getDescribeSemaphore().getReqId())
                        .setStatus(status)
                        .addAllIssues(issues));
            }
            case CREATE_SEMAPHORE -> {
                response.setCreateSemaphoreResult(SessionResponse.CreateSemaphoreResult.newBuilder()
                        .setReqId(request.getCreateSemaphore().getReqId())
                        .setStatus(status)
                        .addAllIssues(issues));
            }
            case UPDATE_SEMAPHORE -> {
                response.setUpdateSemaphoreResult(SessionResponse.UpdateSemaphoreResult.newBuilder()
                        .setReqId(request.getUpdateSemaphore().getReqId())
                        .setStatus(status)
                        .addAllIssues(issues));
            }
            case DELETE_SEMAPHORE -> {
                response.setDeleteSemaphoreResult(SessionResponse.DeleteSemaphoreResult.newBuilder()
                        .setReqId(request.getDeleteSemaphore().getReqId())
                        .setStatus(status)
                        .addAllIssues(issues));
            }
            default -> throw new IllegalArgumentException("not a semaphore request: " + request.getRequestCase());
        }
        return response.build();
    }
}
