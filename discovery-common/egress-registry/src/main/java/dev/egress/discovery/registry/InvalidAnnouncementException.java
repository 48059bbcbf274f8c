package dev.egress.discovery.registry;

/**
 * An announcement broke a rule of the registry payload. Names the field and the rule so that the
 * log line for a bad owner says exactly what to fix.
 */
public final class InvalidAnnouncementException extends RuntimeException {

    private final String field;

    /**
     * Creates the exception.
     *
     * @param field  the JSON field at fault ({@code payload} for the whole document)
     * @param reason the rule it broke, with the offending value
     */
    public InvalidAnnouncementException(String field, String reason) {
        super(field + ": " + reason, null, false, false);
        this.field = field;
    }

    /**
     * The JSON field at fault.
     *
     * @return field name, {@code payload} for the whole document
     */
    public String field() {
        return field;
    }

    /**
     * An offending value for a message, quoted and cut short: a payload may be up to 64 KiB and the
     * message ends up in a log line.
     */
    static String quoted(Object value) {
        String text = String.valueOf(value);
        return "'" + (text.length() <= 80 ? text : text.substring(0, 80) + "...") + "'";
    }
}
