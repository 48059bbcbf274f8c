package dev.egress.discovery.registry.ydb;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongUnaryOperator;

/**
 * Exponential backoff with full jitter: attempt {@code n} (from 0) waits a uniformly random time in
 * {@code [0, min(cap, base * 2^n)]}. Full jitter spreads a fleet that lost the registry at the same
 * moment (a coordination node restart) over the whole window instead of stampeding it in waves.
 * Not thread-safe: each retry loop owns one.
 */
final class Backoff {

    /** The publish side's backoff (docs/architecture.md, "The registry protocol"): base 200 ms, cap 30 s. */
    static final Duration BASE = Duration.ofMillis(200);

    static final Duration CAP = Duration.ofSeconds(30);

    private final long baseMillis;
    private final long capMillis;
    private final LongUnaryOperator random;
    private int attempt;

    Backoff(Duration base, Duration cap) {
        this(base, cap, bound -> ThreadLocalRandom.current().nextLong(bound + 1));
    }

    /**
     * @param random maps an inclusive upper bound to a value in {@code [0, bound]} (tests pin it)
     */
    Backoff(Duration base, Duration cap, LongUnaryOperator random) {
        if (base.toMillis() < 1 || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("base: %s, cap: %s (expected: 1ms <= base <= cap)".formatted(base, cap));
        }
        this.baseMillis = base.toMillis();
        this.capMillis = cap.toMillis();
        this.random = random;
    }

    /**
     * The delay before the next attempt; each call counts one more failed attempt.
     *
     * @return the delay
     */
    Duration next() {
        long ceiling = ceiling(attempt);
        attempt = Math.min(attempt + 1, 62);
        return Duration.ofMillis(random.applyAsLong(ceiling));
    }

    /** Starts over after a success. */
    void reset() {
        attempt = 0;
    }

    /**
     * How many delays were handed out since the last reset.
     *
     * @return the attempt count
     */
    int attempts() {
        return attempt;
    }

    private long ceiling(int n) {
        // Shift only while it cannot overflow; past that the cap rules anyway.
        if (n >= 62 || baseMillis > (capMillis >> Math.min(n, 62))) {
            return capMillis;
        }
        return Math.min(capMillis, baseMillis << n);
    }
}
