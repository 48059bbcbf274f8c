package dev.egress.ydb.query;

import dev.egress.ydb.query.store.Limits;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How the node keeps its tables.
 *
 * @param dataDir      null: in memory; else the directory of the log and snapshot (every acknowledged commit
 *                     survives a kill)
 * @param ttlPeriod    how often TTL sweeps expired rows (YDB: at least 15 min, by default 1 h)
 * @param limits       bounds on rows, bytes and results
 * @param compactBytes log size that triggers a compacted snapshot
 */
public record TableOptions(Path dataDir, Duration ttlPeriod, Limits limits, long compactBytes) {

    /** In memory, TTL swept every second, default limits. */
    public static final TableOptions IN_MEMORY =
            new TableOptions(null, Duration.ofSeconds(1), Limits.DEFAULT, 64L << 20);

    public TableOptions withDataDir(Path dir) {
        return new TableOptions(dir, ttlPeriod, limits, compactBytes);
    }

    public TableOptions withTtlPeriod(Duration period) {
        return new TableOptions(dataDir, period, limits, compactBytes);
    }

    public TableOptions withLimits(Limits l) {
        return new TableOptions(dataDir, ttlPeriod, l, compactBytes);
    }

    public TableOptions withCompactBytes(long bytes) {
        return new TableOptions(dataDir, ttlPeriod, limits, bytes);
    }
}
