package dev.egress.app.resilience;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Caps retries at a fraction of traffic, so that when many Borders fail at once retries cannot
 * multiply the load on the survivors. Every delivery deposits {@code ratio} of a token, every retry
 * withdraws a whole one; the balance is capped at {@code burst} tokens and starts full.
 */
public final class RetryBudget {

    private static final long UNIT = 1_000;

    private final long deposit;
    private final long cap;
    private final AtomicLong balance;

    /**
     * Creates a budget.
     *
     * @param ratio retries allowed per delivery in the long run (0..1]
     * @param burst retries that may be spent at once (≥ 1)
     */
    public RetryBudget(double ratio, int burst) {
        if (!(ratio > 0 && ratio <= 1)) {
            throw new IllegalArgumentException("ratio: %s (expected: 0 < ratio <= 1)".formatted(ratio));
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst: %d (expected: >= 1)".formatted(burst));
        }
        this.deposit = Math.max(1, Math.round(ratio * UNIT));
        this.cap = burst * UNIT;
        this.balance = new AtomicLong(cap);
    }

    /** Records a delivery (a first attempt). */
    public void onDelivery() {
        balance.accumulateAndGet(deposit, (current, add) -> Math.min(cap, current + add));
    }

    /**
     * Spends one retry if the budget has it.
     *
     * @return true if the retry may go ahead
     */
    public boolean tryRetry() {
        while (true) {
            long current = balance.get();
            if (current < UNIT) {
                return false;
            }
            if (balance.compareAndSet(current, current - UNIT)) {
                return true;
            }
        }
    }

    /**
     * Retries currently available.
     *
     * @return whole tokens in the balance
     */
    public long available() {
        return balance.get() / UNIT;
    }
}
