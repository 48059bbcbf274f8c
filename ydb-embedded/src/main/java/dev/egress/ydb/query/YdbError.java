package dev.egress.ydb.query;

import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;

/**
 * A query's failure as YDB reports it: a status and one issue (code and message). Thrown anywhere below the gRPC
 * service and turned into a response part once, there.
 */
public final class YdbError extends RuntimeException {

    /** YDB's issue codes used here (ydb/library/yql/core/issue/protos/issue_id.proto). */
    public static final int LOCKS_INVALIDATED = 2001;

    public static final int SCHEME_ERROR = 2003;
    public static final int CONSTRAINT_VIOLATION = 2012;
    public static final int TX_NOT_FOUND = 2015;
    public static final int UNSUPPORTED = 2030;
    public static final int NOT_NULL_VIOLATION = 2031;
    public static final int MISSING_NOT_NULL = 2032;

    private final transient StatusCode status;
    private final int issueCode;

    public YdbError(StatusCode status, int issueCode, String message) {
        super(message, null, false, false);
        this.status = status;
        this.issueCode = issueCode;
    }

    public YdbError(StatusCode status, String message) {
        this(status, 0, message);
    }

    public StatusCode status() {
        return status;
    }

    public int issueCode() {
        return issueCode;
    }

    public static YdbError badRequest(String message) {
        return new YdbError(StatusCode.BAD_REQUEST, message);
    }

    public static YdbError generic(String message) {
        return new YdbError(StatusCode.GENERIC_ERROR, message);
    }

    /** Valid YQL (or what might be) outside the subset this node executes. */
    public static YdbError unsupported(String construct) {
        return new YdbError(
                StatusCode.UNSUPPORTED, UNSUPPORTED, "Not supported by the embedded YDB node: " + construct);
    }

    public static YdbError noTable(String path) {
        return new YdbError(
                StatusCode.SCHEME_ERROR,
                SCHEME_ERROR,
                "Cannot find table 'db.[" + path + "]' because it does not exist or you do not have access"
                        + " permissions. Please check correctness of table path and user permissions.");
    }
}
