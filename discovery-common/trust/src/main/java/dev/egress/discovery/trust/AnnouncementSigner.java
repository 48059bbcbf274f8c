package dev.egress.discovery.trust;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.AnnouncementCodec;
import dev.egress.discovery.registry.AnnouncementWriter;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Publish side of authenticated announcements: a Border signs the exact announcement bytes with the
 * private key of its current identity and carries its certificate chain, so that any App can check
 * that the operator's CA issued that key for that {@code borderId} ({@link AnnouncementVerifier}).
 * Reads the identity on every write, so a rotated certificate is used by the next publish.
 *
 * <p>Every signed payload carries a validity window ({@code validFor}, counted from its {@code publishedAt}):
 * App refuses it once the window ends, so a captured copy replayed later is dead. The Border republishes
 * well before the end (docs/architecture.md, "The trust chain").
 */
public final class AnnouncementSigner implements AnnouncementWriter {

    /** The window when none is configured ({@code egress.trust.announcement-validity}). */
    public static final Duration DEFAULT_VALIDITY = Duration.ofMinutes(5);

    private final AnnouncementCodec codec = new AnnouncementCodec();
    private final Supplier<Identity> identity;
    private final Duration validity;

    /**
     * Creates the signer with the default window.
     *
     * @param identity the Border's current identity (typically a {@link ReloadingFile})
     */
    public AnnouncementSigner(Supplier<Identity> identity) {
        this(identity, DEFAULT_VALIDITY);
    }

    /**
     * Creates the signer.
     *
     * @param identity the Border's current identity (typically a {@link ReloadingFile})
     * @param validity how long each signed publish stays valid after its {@code publishedAt}
     */
    public AnnouncementSigner(Supplier<Identity> identity, Duration validity) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.validity = Objects.requireNonNull(validity, "validity");
        // Fails now, not at the first publish, on a window the codec would refuse.
        Announcement.requireValidWindow(validity);
    }

    /**
     * The window this signer stamps on announcements that carry none.
     *
     * @return the validity, always present
     */
    @Override
    public Optional<Duration> validity() {
        return Optional.of(validity);
    }

    @Override
    public byte[] write(Announcement announcement) {
        byte[] payload =
                codec.encode(announcement.validFor() == null ? announcement.withValidity(validity) : announcement);
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
