package dev.egress.discovery.files.hash;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256, the one digest of the platform: token digests, idempotency fingerprints, the verifier's cache key and
 * the watched files' content check. Every JVM must provide it, so its absence is a broken JVM, not a case to
 * handle at each call site.
 */
public final class Sha256 {

    private Sha256() {}

    /**
     * A fresh digest, for input fed in parts.
     *
     * @return a SHA-256 {@link MessageDigest}
     */
    public static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /**
     * The digest of some bytes.
     *
     * @param bytes the input
     * @return its 32-byte SHA-256
     */
    public static byte[] of(byte[] bytes) {
        return digest().digest(bytes);
    }
}
