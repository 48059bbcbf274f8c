package dev.egress.discovery.web.auth;

import java.util.Collection;
import java.util.List;

/**
 * The bearer tokens one endpoint accepts, held only as SHA-256 digests ({@link TokenDigest}). A check
 * hashes the presented token once and compares that digest with every accepted one in constant time,
 * without an early exit, so neither a token's content, its length, nor which token matched leaks through
 * timing, and a door with several lists still hashes once. Shared by App and Border so both doors check
 * tokens the same way.
 */
public final class BearerTokens {

    private static final BearerTokens NONE = new BearerTokens(List.of());

    private final List<TokenDigest> digests;

    private BearerTokens(List<TokenDigest> digests) {
        this.digests = digests;
    }

    /**
     * Accepts the given tokens; blank ones are ignored.
     *
     * @param tokens the secrets (not kept)
     * @return the matcher; with no tokens it matches nothing
     */
    public static BearerTokens of(Collection<String> tokens) {
        return new BearerTokens(tokens.stream()
                .filter(t -> t != null && !t.isBlank())
                .map(String::strip)
                .map(TokenDigest::of)
                .toList());
    }

    /**
     * Accepts nothing: what a revoked token file yields.
     *
     * @return the empty matcher
     */
    public static BearerTokens none() {
        return NONE;
    }

    /**
     * Whether no token is configured.
     *
     * @return true if nothing can match
     */
    public boolean isEmpty() {
        return digests.isEmpty();
    }

    /**
     * How many tokens are configured.
     *
     * @return the count
     */
    public int size() {
        return digests.size();
    }

    /**
     * Whether a presented token, already hashed, is one of these. Compares with every digest.
     *
     * @param presented the presented token's digest, may be null (no token presented)
     * @return true on a match
     */
    public boolean matches(TokenDigest presented) {
        if (presented == null) {
            return false;
        }
        boolean found = false;
        for (TokenDigest accepted : digests) {
            // No short-circuit: every digest is compared whatever matched before.
            found |= accepted.sameAs(presented);
        }
        return found;
    }

    /**
     * Whether an {@code Authorization} header carries any configured token (a door with one list).
     *
     * @param authorizationHeader the header value, may be null
     * @return true on a match
     */
    public boolean matches(String authorizationHeader) {
        return matches(TokenDigest.ofAuthorization(authorizationHeader));
    }

    @Override
    public String toString() {
        return "BearerTokens[" + digests.size() + " configured]";
    }
}
