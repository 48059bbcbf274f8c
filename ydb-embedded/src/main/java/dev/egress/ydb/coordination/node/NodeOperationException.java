package dev.egress.ydb.coordination.node;

import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;

/** A node-level request failed with a YDB status (reported in {@code operation.status}, not as a gRPC error). */
public final class NodeOperationException extends RuntimeException {

    private final transient StatusCode status;

    /**
     * @param status  the YDB status
     * @param message the issue text
     */
    public NodeOperationException(StatusCode status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** The YDB status to report. */
    public StatusCode status() {
        return status;
    }
}
