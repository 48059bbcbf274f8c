package dev.egress.discovery.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The bearer tokens one endpoint accepts, held only as SHA-256 digests. Matching compares digests with
 * {@link MessageDigest#isEqual} against every token without an early exit, so neither a token's content,
 * its length, nor which token matched leaks through timing. Shared by App and Border so both doors check
 * tokens the same way.
 */
public final class BearerTokens {

    private static final String PREFIX = "Bearer ";

    private final List<byte[]> digests;

    private BearerTokens(List<byte[]> digests) {
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
                .map(BearerTokens::sha256)
                .toList());
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
     * Which configured token an {@code Authorization} header carries.
     *
     * @param authorizationHeader the header value, may be null
     * @return the token's index in configuration order, or -1 if none matches
     */
    public int match(@Nullable String authorizationHeader) {
        if (authorizationHeader == null
                || authorizationHeader.length() <= PREFIX.length()
                || !authorizationHeader.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return -1;
        }
        byte[] presented = sha256(authorizationHeader.substring(PREFIX.length()).strip());
        int found = -1;
        for (int i = 0; i < digests.size(); i++) {
            if (MessageDigest.isEqual(digests.get(i), presented) && found < 0) {
                found = i;
            }
        }
        return found;
    }

    /**
     * Whether an {@code Authorization} header carries any configured token.
     *
     * @param authorizationHeader the header value, may be null
     * @return true on a match
     */
    public boolean matches(@Nullable String authorizationHeader) {
        return match(authorizationHeader) >= 0;
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    @Override
    public String toString() {
        return "BearerTokens[" + digests.size() + " configured]";
    }
}
