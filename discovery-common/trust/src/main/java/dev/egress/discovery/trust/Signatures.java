package dev.egress.discovery.trust;

import java.security.Key;
import java.security.NoSuchAlgorithmException;

/**
 * The one signature algorithm per key type. The verifier derives it from the signer's certificate,
 * never from the signed message, so a forger cannot pick a weaker algorithm.
 */
final class Signatures {

    private Signatures() {}

    static String algorithmFor(Key key) throws NoSuchAlgorithmException {
        return switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default ->
                throw new NoSuchAlgorithmException(
                        "unsupported key type " + key.getAlgorithm() + " (expected: EC, RSA or Ed25519)");
        };
    }
}
