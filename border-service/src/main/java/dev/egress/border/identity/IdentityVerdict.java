package dev.egress.border.identity;

import org.jspecify.annotations.Nullable;

/** What the outside last said about one dedicated IP. */
public enum IdentityVerdict {
    /** No check has answered yet: withheld, since nothing proves the IP leaves as itself. */
    UNVERIFIED("egress-identity-unverified"),
    /** The echo service saw the announced public address. */
    MATCH(null),
    /** The echo service saw another address: something on the way translates the source. Withheld. */
    MISMATCH("egress-identity-mismatch");

    private final @Nullable String reason;

    IdentityVerdict(@Nullable String reason) {
        this.reason = reason;
    }

    /**
     * The reason an IP with this verdict is withheld, as announced beside its {@code DISABLED} status.
     *
     * @return the reason slug, or null for {@link #MATCH}
     */
    public @Nullable String withheldReason() {
        return reason;
    }
}
