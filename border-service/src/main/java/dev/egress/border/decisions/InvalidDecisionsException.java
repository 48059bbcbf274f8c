package dev.egress.border.decisions;

/** A stored decision record that fails the codec; the message names the field and the rule. */
public final class InvalidDecisionsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param field the field at fault ({@code record} for the whole)
     * @param rule  what was found and what was expected
     */
    public InvalidDecisionsException(String field, String rule) {
        super(field + ": " + rule);
    }
}
