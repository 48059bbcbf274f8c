package dev.egress.ydb.query.store;

/**
 * Bounds on what the node holds, each refused with a clear error rather than an out-of-memory.
 *
 * @param maxRows       live rows over all tables
 * @param maxBytes      approximate bytes of live rows over all tables
 * @param maxResultRows rows in one result set
 * @param maxTxWrites   rows one transaction may buffer
 */
public record Limits(long maxRows, long maxBytes, int maxResultRows, int maxTxWrites) {

    /** Defaults for a test or local node: 1 M rows, 256 MiB, 100 000 result rows, 100 000 writes per tx. */
    public static final Limits DEFAULT = new Limits(1_000_000, 256L << 20, 100_000, 100_000);
}
