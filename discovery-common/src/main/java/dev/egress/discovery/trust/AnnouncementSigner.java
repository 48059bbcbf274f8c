package dev.egress.discovery.trust;

import dev.egress.discovery.Announcement;
import dev.egress.discovery.AnnouncementCodec;
import dev.egress.discovery.AnnouncementWriter;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Publish side of authenticated announcements: a Border signs the exact announcement bytes with the
 * private key of its current identity and carries its certificate chain, so that any App can check
 * that the operator's CA issued that key for that {@code borderId} ({@link AnnouncementVerifier}).
 * Reads the identity on every write, so a rotated certificate is used by the next publish.
 */
public final class AnnouncementSigner implements AnnouncementWriter {

    private final AnnouncementCodec codec = new AnnouncementCodec();
    private final Supplier<Identity> identity;

    /**
     * Creates the signer.
     *
     * @param identity the Border's current identity (typically a {@link ReloadingFile})
     */
    public AnnouncementSigner(Supplier<Identity> identity) {
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    @Override
    public byte[] write(Announcement announcement) {
        byte[] payload = codec.encode(announcement);
        Identity current = identity.get();
        try {
            Signature signer = Signature.getInstance(Signatures.algorithmFor(current.key()));
            signer.initSign(current.key());
            signer.update(payload);
            List<byte[]> chain = new ArrayList<>(current.chain().size());
            for (X509Certificate certificate : current.chain()) {
                chain.add(certificate.getEncoded());
            }
            return new SignedEnvelope(payload, signer.sign(), chain).encode();
        } catch (CertificateEncodingException e) {
            throw new TrustMaterialException("cannot encode the Border's certificate chain", e);
        } catch (GeneralSecurityException e) {
            throw new TrustMaterialException("cannot sign the announcement with the Border's key", e);
        }
    }
}
