package dev.egress.app.signing;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One tenant's signing secret, {@code whsec_} and the base64 of 24 to 64 random bytes, as Standard Webhooks
 * spells it. Holds the decoded key only; it never appears in {@link #toString()} or in an error message, and
 * two secrets are compared in constant time.
 */
final class SigningSecret {

    /** The prefix of every secret. */
    static final String PREFIX = "whsec_";

    /** Standard Webhooks' bounds on the key: at least 192 bits, at most a SHA-256 block. */
    static final int MIN_BYTES = 24;

    static final int MAX_BYTES = 64;

    private static final String HMAC = "HmacSHA256";

    private final SecretKeySpec key;

    private SigningSecret(byte[] bytes) {
        this.key = new SecretKeySpec(bytes, HMAC);
        Arrays.fill(bytes, (byte) 0);
    }

    /**
     * Reads a secret.
     *
     * @param text {@code whsec_} and standard base64
     * @return the secret
     * @throws IllegalArgumentException stating the rule broken, never quoting the text
     */
    static SigningSecret parse(String text) {
        if (!text.startsWith(PREFIX)) {
            throw new IllegalArgumentException("does not start with " + PREFIX);
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not standard base64 after " + PREFIX, null);
        }
        if (bytes.length < MIN_BYTES || bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException(
                    "%d bytes after %s (expected: %d to %d)".formatted(bytes.length, PREFIX, MIN_BYTES, MAX_BYTES));
        }
        return new SigningSecret(bytes);
    }

    /**
     * The {@code v1} signature of a message.
     *
     * @param parts the message's parts, fed to the MAC in order (Standard Webhooks signs {@code id.timestamp.body})
     * @return the base64 of its HMAC-SHA256
     */
    String sign(byte[]... parts) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            for (byte[] part : parts) {
                mac.update(part);
            }
            return Base64.getEncoder().encodeToString(mac.doFinal());
        } catch (GeneralSecurityException e) {
            // HmacSHA256 is required of every JRE, and the key was checked when it was read.
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SigningSecret that && MessageDigest.isEqual(key.getEncoded(), that.key.getEncoded());
    }

    @Override
    public int hashCode() {
        return 0; // equal secrets must hash alike, and no bit of a key leaves this class
    }

    @Override
    public String toString() {
        return "SigningSecret[redacted]";
    }
}
