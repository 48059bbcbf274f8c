package dev.egress.border.testing;

/** Tokens used by Spring-level tests. */
public final class Tokens {

    /** App's token. */
    public static final String INTERNAL = "internal-test-token";
    /** Operator's token. */
    public static final String OPERATOR = "operator-test-token";

    private Tokens() {}
}
