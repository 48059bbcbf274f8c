package dev.egress.app.attempts;

import java.time.Duration;

/**
 * The rules one run of attempts keeps, for a delivery and for a tunnel's connect alike: how many Border calls it
 * makes at most, how long one may take, the margin taken off the deadline a Border is sent, and what one call may
 * wait for and read from the Border's link.
 *
 * @param maxAttempts    Border calls per run at most ({@code egress.dispatch.max-attempts}; 1 = never retry)
 * @param attemptTimeout how long one call may take ({@code egress.dispatch.attempt-timeout}; for a tunnel, the
 *                       proxy's connect timeout)
 * @param deadlineMargin taken off the moment App gives up on a call to make the deadline the Border is sent, so a
 *                       Border clock behind App's by up to this much still refuses a late call
 * @param pingTimeout    how long a call waits on a link whose PING is in doubt before it goes elsewhere unsent
 * @param maxAnswerBytes the largest Border answer read into memory
 */
public record AttemptPolicy(
        int maxAttempts, Duration attemptTimeout, Duration deadlineMargin, Duration pingTimeout, int maxAnswerBytes) {

    /** Validates the rules. */
    public AttemptPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts: %d (expected: >= 1)".formatted(maxAttempts));
        }
        if (maxAnswerBytes < 1) {
            throw new IllegalArgumentException("maxAnswerBytes: %d (expected: >= 1)".formatted(maxAnswerBytes));
        }
    }

    /**
     * The same rules with another limit on one call: a tunnel's connect waits the proxy's connect timeout.
     *
     * @param timeout the limit
     * @return the rules
     */
    public AttemptPolicy withAttemptTimeout(Duration timeout) {
        return new AttemptPolicy(maxAttempts, timeout, deadlineMargin, pingTimeout, maxAnswerBytes);
    }

    /**
     * Whether a run that has sent this many calls may send another (the budget aside).
     *
     * @param sent calls sent so far
     * @return true below {@code maxAttempts}
     */
    boolean mayRetryAfter(int sent) {
        return sent < maxAttempts;
    }
}
