package dev.egress.discovery.trust;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PEM text with the JDK alone: X.509 certificates (a chain or a CA bundle) and an unencrypted
 * PKCS#8 private key ({@code BEGIN PRIVATE KEY}) of type EC, RSA or Ed25519. Errors name what was
 * expected and never include key material.
 */
public final class Pem {

    private static final Pattern PRIVATE_KEY =
            Pattern.compile("-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");
    private static final List<String> KEY_ALGORITHMS = List.of("EC", "RSA", "Ed25519");

    private Pem() {}

    /**
     * Parses every certificate in PEM text.
     *
     * @param pem  the text
     * @param what what the text is, for the error message (e.g. the property and file)
     * @return the certificates in file order, at least one
     * @throws TrustMaterialException if there is none or one is unreadable
     */
    public static List<X509Certificate> certificates(byte[] pem, String what) {
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            List<X509Certificate> certificates = new ArrayList<>();
            for (Certificate certificate : factory.generateCertificates(new ByteArrayInputStream(pem))) {
                certificates.add((X509Certificate) certificate);
            }
            if (certificates.isEmpty()) {
                throw new TrustMaterialException(what + ": no certificate (expected: PEM 'BEGIN CERTIFICATE' blocks)");
            }
            return List.copyOf(certificates);
        } catch (CertificateException e) {
            throw new TrustMaterialException(
                    what + ": unreadable certificate (expected: PEM X.509): " + e.getMessage());
        }
    }

    /**
     * Parses an unencrypted PKCS#8 private key.
     *
     * @param pem  the text
     * @param what what the text is, for the error message
     * @return the key
     * @throws TrustMaterialException if there is no PKCS#8 block or the key type is not EC, RSA or Ed25519
     */
    public static PrivateKey privateKey(byte[] pem, String what) {
        Matcher matcher = PRIVATE_KEY.matcher(new String(pem, StandardCharsets.US_ASCII));
        if (!matcher.find()) {
            throw new TrustMaterialException(what + ": no private key (expected: an unencrypted PKCS#8 "
                    + "'BEGIN PRIVATE KEY' block; convert with: openssl pkcs8 -topk8 -nocrypt)");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(matcher.group(1));
        } catch (IllegalArgumentException e) {
            throw new TrustMaterialException(what + ": private key is not valid base64");
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // try the next type
            }
        }
        throw new TrustMaterialException(what + ": unsupported private key (expected: PKCS#8 EC, RSA or Ed25519)");
    }
}
