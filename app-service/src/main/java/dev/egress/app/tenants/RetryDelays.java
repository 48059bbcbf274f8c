package dev.egress.app.tenants;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The delays of a durable delivery's attempts: entry {@code n} is how long after the previous attempt failed
 * (for the first, after the webhook was accepted) attempt {@code n + 1} is made, so the list's length is the
 * number of attempts before a webhook is given up. One rule for the global schedule
 * ({@code egress.delivery.retry.schedule}) and a tenant's {@code retrySchedule} in the tenants file.
 *
 * @param delays the delays, in attempt order
 */
public record RetryDelays(List<Duration> delays) {

    /** Most attempts a schedule may make: a webhook is given up well within the retention of dead ones. */
    public static final int MAX_ATTEMPTS = 30;

    /** Longest single delay: a longer one would outlive the receiver's interest in the webhook. */
    public static final Duration MAX_DELAY = Duration.ofDays(7);

    /** Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: eight attempts over about 27 hours. */
    public static final RetryDelays DEFAULT = new RetryDelays(List.of(
            Duration.ZERO,
            Duration.ofSeconds(5),
            Duration.ofMinutes(5),
            Duration.ofMinutes(30),
            Duration.ofHours(2),
            Duration.ofHours(5),
            Duration.ofHours(10),
            Duration.ofHours(10)));

    private static final Pattern TEXT = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

    /** Checks the rule; the message names the offending entry. */
    public RetryDelays {
        delays = List.copyOf(delays);
        if (delays.isEmpty() || delays.size() > MAX_ATTEMPTS) {
            throw new IllegalArgumentException(
                    "%d entries (expected: 1 to %d attempts)".formatted(delays.size(), MAX_ATTEMPTS));
        }
        for (int i = 0; i < delays.size(); i++) {
            Duration delay = delays.get(i);
            if (delay.isNegative() || delay.compareTo(MAX_DELAY) > 0) {
                throw new IllegalArgumentException(
                        "[%d]: %s (expected: 0s to %s)".formatted(i, text(delay), text(MAX_DELAY)));
            }
        }
    }

    /**
     * How many attempts the schedule makes.
     *
     * @return the number of delays
     */
    public int attempts() {
        return delays.size();
    }

    /**
     * The delay before an attempt.
     *
     * @param attempt the attempt's number, from 1
     * @return its delay
     * @throws IndexOutOfBoundsException past the last attempt
     */
    public Duration before(int attempt) {
        return delays.get(attempt - 1);
    }

    /**
     * Reads a list as the tenants file spells it: {@code [0s, 5s, 5m, 30m, 2h, 1d]}, each a whole number
     * with a unit ({@code ms}, {@code s}, {@code m}, {@code h}, {@code d}); a bare number is refused, as its
     * unit would be a guess.
     *
     * @param raw the YAML value
     * @return the delays
     * @throws IllegalArgumentException naming the entry that breaks the rule
     */
    public static RetryDelays parse(Object raw) {
        if (!(raw instanceof List<?> list)) {
            throw new IllegalArgumentException("expected a list of durations such as [0s, 5s, 5m, 2h]");
        }
        List<Duration> delays = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            Object entry = list.get(i);
            Matcher m = TEXT.matcher(entry instanceof String s ? s.trim().toLowerCase(Locale.ROOT) : "");
            if (!m.matches()) {
                throw new IllegalArgumentException(
                        "[%d]: '%s' (expected: a whole number with a unit ms, s, m, h or d)".formatted(i, entry));
            }
            long n = Long.parseLong(m.group(1));
            delays.add(
                    switch (m.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        case "h" -> Duration.ofHours(n);
                        default -> Duration.ofDays(n);
                    });
        }
        return new RetryDelays(delays);
    }

    private static String text(Duration duration) {
        return duration.toString().substring(2).toLowerCase(Locale.ROOT);
    }
}
