package dev.egress.ydb.coordination;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Who may talk to an embedded node and how: anonymous and plaintext like local-ydb by default, or with
 * access tokens (checked like YDB checks {@code x-ydb-auth-ticket}) and/or TLS ({@code grpcs://}).
 *
 * @param tokens           accepted access tokens; empty accepts anonymous callers
 * @param certificateChain PEM certificate chain to serve TLS with, or null for plaintext
 * @param privateKey       PEM (PKCS#8) private key of that chain, or null for plaintext
 */
public record NodeAccess(
        Set<String> tokens,
        @Nullable Path certificateChain,
        @Nullable Path privateKey) {

    /** Anonymous and plaintext, as local-ydb. */
    public static final NodeAccess ANONYMOUS = new NodeAccess(Set.of(), null, null);

    /** Copies the tokens and checks that TLS is configured whole or not at all. */
    public NodeAccess {
        tokens = Set.copyOf(Objects.requireNonNull(tokens, "tokens"));
        if (tokens.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("tokens: a blank token would accept anonymous callers");
        }
        if ((certificateChain == null) != (privateKey == null)) {
            throw new IllegalArgumentException("certificateChain and privateKey: give both for TLS, or neither");
        }
    }

    /**
     * This access with accepted tokens.
     *
     * @param accepted the tokens
     * @return the new access
     */
    public NodeAccess withTokens(Set<String> accepted) {
        return new NodeAccess(accepted, certificateChain, privateKey);
    }

    /**
     * This access served over TLS.
     *
     * @param chain PEM certificate chain
     * @param key   PEM (PKCS#8) private key
     * @return the new access
     */
    public NodeAccess withTls(Path chain, Path key) {
        return new NodeAccess(tokens, chain, key);
    }

    boolean tls() {
        return certificateChain != null;
    }

    @Override
    public String toString() {
        // Never the tokens themselves.
        return "NodeAccess[tokens=" + tokens.size() + ", tls=" + tls() + "]";
    }
}
