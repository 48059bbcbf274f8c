package dev.egress.discovery.trust;

import dev.egress.discovery.registry.InvalidAnnouncementException;
import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A Border's own stored records (its operator decisions), signed with its key in the envelope announcements use
 * ({@code {"payload","signature","chain"}}, {@link SignedEnvelope}), so that a registry writer cannot forge or
 * edit one: the Border accepts a record only if its leaf names the Border's own SPIFFE id, the signature verifies
 * over the payload with the leaf's key (the algorithm follows the key, never the data), and that key is either
 * the Border's current one or was issued by a CA it trusts. The second case is what survives a certificate
 * rotation: the record was signed by the previous key. The CA check asks for the chain to have been valid when
 * its leaf was issued, not now: a record outlives its short-lived certificate, and whether it is the newest one
 * is the caller's question (a sequence number inside the payload), not a certificate's.
 */
public final class SignedRecords {

    private SignedRecords() {}

    /**
     * Signs a record's bytes with the current identity.
     *
     * @param payload  the record
     * @param identity the signer's identity (its chain is carried)
     * @return the envelope's bytes, ASCII JSON
     * @throws TrustMaterialException if the key cannot sign or the chain cannot be encoded
     */
    public static byte[] sign(byte[] payload, Identity identity) {
        Objects.requireNonNull(payload, "payload");
        try {
            Signature signer = Signature.getInstance(Signatures.algorithmFor(identity.key()));
            signer.initSign(identity.key());
            signer.update(payload);
            List<byte[]> chain = new ArrayList<>(identity.chain().size());
            for (X509Certificate certificate : identity.chain()) {
                chain.add(certificate.getEncoded());
            }
            return new SignedEnvelope(payload, signer.sign(), chain).encode();
        } catch (CertificateEncodingException e) {
            throw new TrustMaterialException("cannot encode the certificate chain", e);
        } catch (GeneralSecurityException e) {
            throw new TrustMaterialException("cannot sign the record with the current key", e);
        }
    }

    /**
     * Whether stored bytes are an envelope at all (a record written before records were signed is not).
     *
     * @param data the stored bytes
     * @return true if they parse as an envelope
     */
    public static boolean looksSigned(byte[] data) {
        try {
            return SignedEnvelope.looksSigned(SignedEnvelope.parse(data));
        } catch (InvalidAnnouncementException e) {
            return false;
        }
    }

    /**
     * The payload of an envelope, unverified: for {@code insecure-local}, where nothing is verified.
     *
     * @param data the envelope
     * @return its payload
     * @throws UntrustedRecordException if the data is not an envelope
     */
    public static byte[] payloadUnverified(byte[] data) {
        return envelope(data).payload();
    }

    /**
     * Verifies a record and returns its payload.
     *
     * @param data     the stored envelope
     * @param expected the SPIFFE id the signer must carry (the reading Border's own)
     * @param current  the reader's current identity: a record signed by its key needs no CA
     * @param issuers  the CA certificates that may have issued an earlier key of the reader; null for none
     * @return the verified payload
     * @throws UntrustedRecordException naming the broken rule
     */
    public static byte[] verify(byte[] data, SpiffeId expected, Identity current, @Nullable TrustBundle issuers) {
        SignedEnvelope envelope = envelope(data);
        List<X509Certificate> chain = certificates(envelope.chain());
        X509Certificate leaf = chain.get(0);
        List<SpiffeId> named = SpiffeId.of(leaf);
        if (!named.contains(expected)) {
            throw new UntrustedRecordException("signed by a certificate naming %s (expected: %s)"
                    .formatted(named.isEmpty() ? "no SPIFFE id" : named, expected));
        }
        if (!Signatures.valid(leaf, envelope)) {
            throw new UntrustedRecordException("the signature does not verify with the signer's certificate");
        }
        if (leaf.getPublicKey().equals(current.leaf().getPublicKey())) {
            return envelope.payload();
        }
        if (issuers == null) {
            throw new UntrustedRecordException("signed by another key than the current one, and no CA to check it");
        }
        try {
            issuers.verify(chain, leaf.getNotBefore().toInstant());
        } catch (UntrustedChainException e) {
            throw new UntrustedRecordException("signed by a key no trusted CA issued: " + e.getMessage());
        }
        return envelope.payload();
    }

    private static SignedEnvelope envelope(byte[] data) {
        try {
            JsonNode root = SignedEnvelope.parse(data);
            if (!SignedEnvelope.looksSigned(root)) {
                throw new UntrustedRecordException("unsigned (expected: a record signed by this Border's key)");
            }
            return SignedEnvelope.decode(root);
        } catch (InvalidAnnouncementException e) {
            throw new UntrustedRecordException("not a signed record: " + e.getMessage());
        }
    }

    private static List<X509Certificate> certificates(List<byte[]> der) {
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            List<X509Certificate> chain = new ArrayList<>(der.size());
            for (byte[] certificate : der) {
                chain.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(certificate)));
            }
            return chain;
        } catch (CertificateException | ClassCastException e) {
            throw new UntrustedRecordException("chain: unreadable certificate (" + e.getMessage() + ")");
        }
    }
}
