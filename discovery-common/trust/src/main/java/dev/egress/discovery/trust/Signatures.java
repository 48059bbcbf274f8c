package dev.egress.discovery.trust;

import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.Signature;
import java.security.cert.X509Certificate;

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

    /**
     * Whether the envelope's signature over its payload verifies with the leaf certificate's key, under the one
     * algorithm of that key's type. Announcements and decision records are checked the same way.
     */
    static boolean valid(X509Certificate leaf, SignedEnvelope envelope) {
        try {
            Signature verifier = Signature.getInstance(algorithmFor(leaf.getPublicKey()));
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(envelope.payload());
            return verifier.verify(envelope.signature());
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }
}
