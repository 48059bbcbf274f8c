package dev.egress.border.ssrf;

/**
 * An inclusive port range such as {@code 9999} or {@code 8000-8999}.
 *
 * @param from the first port
 * @param to   the last port
 */
record PortRange(int from, int to) {

    /** Validates the bounds. */
    public PortRange {
        if (from < 1 || to > 65535 || from > to) {
            throw new IllegalArgumentException("ports: %d-%d (expected: 1 <= from <= to <= 65535)".formatted(from, to));
        }
    }

    /**
     * Parses {@code 9999} or {@code 8000-8999}.
     *
     * @param text the text
     * @return the range
     * @throws IllegalArgumentException if it is not one port or two ports joined by '-'
     */
    public static PortRange parse(String text) {
        int dash = text.indexOf('-');
        try {
            if (dash < 0) {
                int port = port(text);
                return new PortRange(port, port);
            }
            return new PortRange(port(text.substring(0, dash)), port(text.substring(dash + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "ports: '%s' (expected: a port or a range such as 8000-8999)".formatted(text));
        }
    }

    private static int port(String text) {
        if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new NumberFormatException(text);
        }
        return Integer.parseInt(text);
    }

    /**
     * Whether the port is in the range.
     *
     * @param port a port
     * @return true if {@code from <= port <= to}
     */
    public boolean contains(int port) {
        return port >= from && port <= to;
    }

    @Override
    public String toString() {
        return from == to ? Integer.toString(from) : from + "-" + to;
    }
}
