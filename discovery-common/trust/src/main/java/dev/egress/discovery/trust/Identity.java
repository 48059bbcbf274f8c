package dev.egress.discovery.trust;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * A service's own credential: its certificate chain (leaf first) and the leaf's private key. The key
 * never appears in {@link #toString()}.
 *
 * @param chain the chain, leaf first, at least the leaf
 * @param key   the private key of the leaf
 */
public record Identity(List<X509Certificate> chain, PrivateKey key) {

    /** Requires a chain and a key. */
    public Identity {
        Objects.requireNonNull(key, "key");
        if (chain == null || chain.isEmpty()) {
            throw new IllegalArgumentException("chain: empty (expected: the leaf certificate first)");
        }
        chain = List.copyOf(chain);
    }

    /**
     * The leaf certificate.
     *
     * @return the first certificate of the chain
     */
    public X509Certificate leaf() {
        return chain.get(0);
    }

    /**
     * The chain as an array, as TLS key managers want it.
     *
     * @return a fresh array
     */
    public X509Certificate[] chainArray() {
        return chain.toArray(new X509Certificate[0]);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Identity that && chain.equals(that.chain) && key.equals(that.key);
    }

    @Override
    public int hashCode() {
        return chain.hashCode();
    }

    /** Names the identity, never the key. */
    @Override
    public String toString() {
        return "Identity{%s, %s, expires %s, key=<redacted>}"
                        .formatted(
                                SpiffeId.of(leaf()),
                                leaf().getSubjectX500Principal().getName(),
                                leaf().getNotAfter().toInstant())
                + (chain.size() > 1 ? " +" + (chain.size() - 1) + " issuer(s)" : "");
    }
}
