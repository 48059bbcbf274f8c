package dev.egress.app.delivery;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A target's {@code Retry-After} (RFC 9110 section 10.2.3) as a wait: delay-seconds, or an HTTP-date in any of
 * the three forms a recipient must accept (IMF-fixdate, the obsolete RFC 850 and asctime forms). Anything
 * else is ignored, and the schedule decides.
 */
final class RetryAfter {

    /** Longer than any ceiling: digits beyond it cannot change the bounded wait, and cannot overflow. */
    private static final int MAX_DIGITS = 10;

    /** English day and month names, as HTTP spells them whatever the default locale. */
    private static final List<DateTimeFormatter> DATES = List.of(
            DateTimeFormatter.RFC_1123_DATE_TIME,
            // RFC 850's two-digit year, read as 1970 to 2069 (RFC 9110 asks for the most recent past century).
            new DateTimeFormatterBuilder()
                    .appendPattern("EEEE, dd-MMM-")
                    .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
                    .appendPattern(" HH:mm:ss 'GMT'")
                    .toFormatter(Locale.ENGLISH),
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ENGLISH));

    private RetryAfter() {}

    /**
     * The wait a {@code Retry-After} value asks for.
     *
     * @param value the header's value, or null when absent
     * @param now   the time the answer was received (a date is relative to it)
     * @return the wait, zero for a date in the past, or empty when there is no value or it cannot be read
     */
    static Optional<Duration> parse(@Nullable String value, Instant now) {
        if (value == null) {
            return Optional.empty();
        }
        String text = value.trim();
        if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            String digits = text.replaceFirst("^0+(?=.)", "");
            return Optional.of(
                    digits.length() > MAX_DIGITS
                            ? Duration.ofSeconds(Long.MAX_VALUE / 2)
                            : Duration.ofSeconds(Long.parseLong(digits)));
        }
        for (DateTimeFormatter format : DATES) {
            try {
                Instant at = ZonedDateTime.parse(text, format.withZone(ZoneOffset.UTC))
                        .toInstant();
                return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
            } catch (DateTimeException e) {
                // not this form; try the next
            }
        }
        return Optional.empty();
    }
}
