package dev.egress.border.trust;

import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.trust.TrustFiles;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The Border's place in the platform's PKI ({@code egress.trust.*}). With all three files set, the
 * Border serves TLS with its identity, signs its announcements, and accepts forwards only from App
 * certificates of {@code app-ca}. Without them it refuses to start unless
 * {@code egress.security.insecure-local=true}. Files are re-read when they change.
 *
 * @param certificate   PEM certificate chain of this Border, leaf first; the leaf must carry the URI SAN
 *                      {@code spiffe://<domain>/border/<egress.border.id>}
 * @param privateKey    PEM PKCS#8 private key of the leaf (unencrypted; mount it from a Secret)
 * @param appCa         PEM CA certificates that issue App client certificates
 * @param domain        the SPIFFE trust domain
 * @param checkInterval how often the files are compared for a rotation
 * @param announcementValidity how long each signed announcement stays valid after its {@code publishedAt}
 *                      (1 s..24 h); the Border republishes every half of it, and a copy replayed from the
 *                      registry is refused by Apps once it ends
 */
@ConfigurationProperties("egress.trust")
public record TrustProperties(
        @DefaultValue("") String certificate,
        @DefaultValue("") String privateKey,
        @DefaultValue("") String appCa,
        @DefaultValue("egress.local") String domain,
        @DefaultValue("2s") Duration checkInterval,
        @DefaultValue("5m") Duration announcementValidity) {

    /** Trims the paths and checks the window. */
    public TrustProperties {
        if (announcementValidity.compareTo(Duration.ofSeconds(1)) < 0
                || announcementValidity.compareTo(Announcement.MAX_VALIDITY) > 0) {
            throw new IllegalArgumentException(
                    "egress.trust.announcement-validity: %s (expected: 1s..24h)".formatted(announcementValidity));
        }
        certificate = certificate == null ? "" : certificate.trim();
        privateKey = privateKey == null ? "" : privateKey.trim();
        appCa = appCa == null ? "" : appCa.trim();
    }

    TrustFiles files() {
        return new TrustFiles(certificate, privateKey, "egress.trust.app-ca", appCa, checkInterval);
    }
}
