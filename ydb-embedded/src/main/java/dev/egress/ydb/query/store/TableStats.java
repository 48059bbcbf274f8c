package dev.egress.ydb.query.store;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Counters of the table side of the node, read by the metrics endpoint. */
public final class TableStats {

    private final LongAdder commits = new LongAdder();
    private final LongAdder rowsWritten = new LongAdder();
    private final LongAdder aborts = new LongAdder();
    private final LongAdder rollbacks = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder fsyncs = new LongAdder();
    private final LongAdder fsyncNanos = new LongAdder();
    private final AtomicLong fsyncMaxNanos = new AtomicLong();

    void committed(long rows) {
        commits.increment();
        rowsWritten.add(rows);
    }

    void aborted() {
        aborts.increment();
    }

    /** A transaction rolled back by its client (or its session's end). */
    public void rolledBack() {
        rollbacks.increment();
    }

    /** A query failed with an error other than ABORTED. */
    public void failed() {
        failures.increment();
    }

    void fsynced(long nanos) {
        fsyncs.increment();
        fsyncNanos.add(nanos);
        fsyncMaxNanos.accumulateAndGet(nanos, Math::max);
    }

    public long commits() {
        return commits.sum();
    }

    public long rowsWritten() {
        return rowsWritten.sum();
    }

    public long aborts() {
        return aborts.sum();
    }

    public long rollbacks() {
        return rollbacks.sum();
    }

    public long failures() {
        return failures.sum();
    }

    public long fsyncs() {
        return fsyncs.sum();
    }

    public long fsyncNanos() {
        return fsyncNanos.sum();
    }

    public long fsyncMaxNanos() {
        return fsyncMaxNanos.get();
    }
}
