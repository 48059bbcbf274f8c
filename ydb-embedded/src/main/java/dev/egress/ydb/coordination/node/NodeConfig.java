package dev.egress.ydb.coordination.node;

import tech.ydb.proto.coordination.Config;
import tech.ydb.proto.coordination.ConsistencyMode;
import tech.ydb.proto.coordination.RateLimiterCountersMode;

/**
 * A coordination node's configuration. The embedded node only stores and reports it: a single process has no
 * leader changes, so self-check and grace period change nothing.
 *
 * @param selfCheckPeriodMillis     leader self-check period
 * @param sessionGracePeriodMillis  extra session lifetime after a leader change
 * @param readConsistencyMode       read consistency
 * @param attachConsistencyMode     attach consistency
 * @param rateLimiterCountersMode   rate limiter counters mode
 */
public record NodeConfig(
        int selfCheckPeriodMillis,
        int sessionGracePeriodMillis,
        ConsistencyMode readConsistencyMode,
        ConsistencyMode attachConsistencyMode,
        RateLimiterCountersMode rateLimiterCountersMode) {

    /** YDB's defaults: self-check 1 s, grace 10 s, relaxed reads, strict attach, aggregated counters. */
    public static NodeConfig defaults() {
        return new NodeConfig(
                1_000,
                10_000,
                ConsistencyMode.CONSISTENCY_MODE_RELAXED,
                ConsistencyMode.CONSISTENCY_MODE_STRICT,
                RateLimiterCountersMode.RATE_LIMITER_COUNTERS_MODE_AGGREGATED);
    }

    /**
     * Applies the set fields of {@code change}: zero and UNSET keep the current value. Like YDB's tablet
     * ({@code TTxConfigSet}), values are stored as given, without range checks; YDB only clamps the grace period
     * when it restarts, which an in-memory node never does.
     */
    public NodeConfig apply(Config change) {
        int selfCheck =
                change.getSelfCheckPeriodMillis() != 0 ? change.getSelfCheckPeriodMillis() : selfCheckPeriodMillis;
        int grace = change.getSessionGracePeriodMillis() != 0
                ? change.getSessionGracePeriodMillis()
                : sessionGracePeriodMillis;
        ConsistencyMode read =
                set(change.getReadConsistencyMode()) ? change.getReadConsistencyMode() : readConsistencyMode;
        ConsistencyMode attach =
                set(change.getAttachConsistencyMode()) ? change.getAttachConsistencyMode() : attachConsistencyMode;
        RateLimiterCountersMode counters =
                change.getRateLimiterCountersMode() != RateLimiterCountersMode.RATE_LIMITER_COUNTERS_MODE_UNSET
                                && change.getRateLimiterCountersMode() != RateLimiterCountersMode.UNRECOGNIZED
                        ? change.getRateLimiterCountersMode()
                        : rateLimiterCountersMode;
        return new NodeConfig(selfCheck, grace, read, attach, counters);
    }

    private static boolean set(ConsistencyMode mode) {
        return mode != ConsistencyMode.CONSISTENCY_MODE_UNSET && mode != ConsistencyMode.UNRECOGNIZED;
    }

    /** The wire form, with the node's path filled in (an output-only field). */
    public Config toProto(String path) {
        return Config.newBuilder()
                .setPath(path)
                .setSelfCheckPeriodMillis(selfCheckPeriodMillis)
                .setSessionGracePeriodMillis(sessionGracePeriodMillis)
                .setReadConsistencyMode(readConsistencyMode)
                .setAttachConsistencyMode(attachConsistencyMode)
                .setRateLimiterCountersMode(rateLimiterCountersMode)
                .build();
    }
}
