package dev.egress.discovery.web.auth;

import dev.egress.discovery.files.hash.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * The SHA-256 digest of one bearer token. A door hashes the presented token once into this and compares
 * it with every accepted digest ({@link BearerTokens#matches(TokenDigest)}); the digest also names the
 * token where a stable name is needed (App's idempotency scope), so removing another token from a list
 * changes nothing for this one. Never holds nor prints the token.
 */
public final class TokenDigest {

    private static final String PREFIX = "Bearer ";

    private final byte[] sha256;

    private TokenDigest(byte[] sha256) {
        this.sha256 = sha256;
    }

    /**
     * The digest of a token.
     *
     * @param token the secret (not kept)
     * @return its digest
     */
    public static TokenDigest of(String token) {
        return new TokenDigest(Sha256.of(token.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The digest of the token an {@code Authorization} header carries: scheme {@code Bearer} in any case,
     * the token stripped of surrounding whitespace.
     *
     * @param authorizationHeader the header value, may be null
     * @return the digest, or null when the header carries no bearer token
     */
    public static TokenDigest ofAuthorization(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return null;
        }
        String token = authorizationHeader.substring(PREFIX.length()).strip();
        return token.isEmpty() ? null : of(token);
    }

    /**
     * Whether this digest equals another, in time independent of where they differ.
     *
     * @param other the other digest
     * @return true when equal
     */
    boolean sameAs(TokenDigest other) {
        return MessageDigest.isEqual(sha256, other.sha256);
    }

    /**
     * The digest in lower-case hex: a stable, non-secret name of the token (64 characters).
     *
     * @return the hex digest
     */
    public String hex() {
        return HexFormat.of().formatHex(sha256);
    }

    /** Never the digest either: it would let a reader test guesses offline. */
    @Override
    public String toString() {
        return "TokenDigest[redacted]";
    }
}
