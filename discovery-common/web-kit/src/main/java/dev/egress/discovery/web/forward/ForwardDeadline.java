package dev.egress.discovery.web.forward;

import java.time.Instant;

/**
 * The deadline of one forward attempt, sent by App in the {@value #HEADER} header as an absolute instant in
 * epoch milliseconds. A Border refuses, without contacting the target, a forward that arrives at or after
 * it, and bounds its own call to the target by it: App has given up on the attempt by then, so a late
 * forward (bytes stuck in a partitioned link's retransmissions, say) would reach the customer after App
 * told its caller the delivery failed.
 *
 * <p>Absolute rather than a remaining budget on purpose: a budget ("8 s left") is measured from the moment
 * the Border reads the request, so it cannot see the time the request spent in transit, which is exactly
 * the delay that matters here. The price is a dependence on the two hosts' clocks; App subtracts
 * {@code egress.dispatch.deadline-margin} from its own give-up time to cover their skew.
 *
 * @param epochMillis the instant, in milliseconds since the epoch
 */
public record ForwardDeadline(long epochMillis) {

    /** The request header carrying the deadline. */
    public static final String HEADER = "Egress-Deadline";

    /** Checks the instant: not before the epoch. */
    public ForwardDeadline {
        if (epochMillis < 0) {
            throw new IllegalArgumentException("deadline: %d (expected: >= 0)".formatted(epochMillis));
        }
    }

    /**
     * Reads the header's value.
     *
     * @param header the value as received, or null when absent
     * @return the deadline, or null when absent (an App older than the header)
     * @throws IllegalArgumentException when present but not a non-negative integer
     */
    public static ForwardDeadline parse(String header) {
        if (header == null) {
            return null;
        }
        try {
            return new ForwardDeadline(Long.parseLong(header.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("%s: '%s' (expected: epoch milliseconds)".formatted(HEADER, header), e);
        }
    }

    /**
     * Milliseconds left until the deadline.
     *
     * @param now the current instant
     * @return the time left, zero or negative once passed
     */
    public long millisLeft(Instant now) {
        return epochMillis - now.toEpochMilli();
    }

    /**
     * The header's value.
     *
     * @return the epoch milliseconds as decimal text
     */
    public String headerValue() {
        return Long.toString(epochMillis);
    }
}
