package dev.egress.discovery.registry;

import java.util.regex.Pattern;

/**
 * The stable name of a Border, as announced in the registry and used in breaker names
 * ({@code border-<id>}), metrics and logs.
 *
 * @param value lower-case DNS-label-like name, 1..63 characters
 */
public record BorderId(String value) implements Comparable<BorderId> {

    private static final Pattern FORMAT = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    /** Validates the format. */
    public BorderId {
        if (value == null || !FORMAT.matcher(value).matches()) {
            throw new IllegalArgumentException("borderId: '%s' (expected: [a-z0-9][a-z0-9-]{0,62})".formatted(value));
        }
    }

    /**
     * Parses a Border id.
     *
     * @param value the text form
     * @return the id
     * @throws IllegalArgumentException if the format is wrong
     */
    public static BorderId of(String value) {
        return new BorderId(value);
    }

    @Override
    public int compareTo(BorderId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
