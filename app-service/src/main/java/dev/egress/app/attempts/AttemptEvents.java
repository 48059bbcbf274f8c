package dev.egress.app.attempts;

/**
 * What a run of attempts reports as it goes: every attempt's outcome (skipped ones included), each retry, each
 * retry the budget refused, and each Border answer in breach of the contract. Deliveries count them
 * ({@code egress.delivery.*}); tunnels have meters of their own and report {@link #NONE}.
 */
public interface AttemptEvents {

    /** Reports nothing. */
    AttemptEvents NONE = new AttemptEvents() {};

    /**
     * An attempt ended, or a route was skipped without sending.
     *
     * @param outcome the attempt's outcome ({@link AttemptResult#outcome()})
     */
    default void attempt(String outcome) {}

    /** The run moved to another Border after a failure that did not reach the target. */
    default void retry() {}

    /** A retry the budget refused: the run ends as exhausted. */
    default void budgetExhausted() {}

    /**
     * A Border answered in breach of the contract (another source IP than asked).
     *
     * @param borderId the Border
     * @param reason   the breach, e.g. {@code source-ip-mismatch}
     */
    default void borderFault(String borderId, String reason) {}
}
