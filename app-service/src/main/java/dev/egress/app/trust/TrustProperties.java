package dev.egress.app.trust;

import dev.egress.discovery.trust.TrustFiles;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * App's place in the platform's PKI ({@code egress.trust.*}). With all three files set, App routes only
 * on announcements signed by Border identities of {@code border-ca}, and calls Borders over mutual TLS,
 * presenting its certificate and checking that the Border's names the route's {@code borderId}.
 * Without them App refuses to start unless {@code egress.security.insecure-local=true}. Files are
 * re-read when they change.
 *
 * @param certificate   PEM certificate chain of this App, leaf first; the leaf must carry a URI SAN
 *                      {@code spiffe://<domain>/app/<name>}
 * @param privateKey    PEM PKCS#8 private key of the leaf
 * @param borderCa      PEM CA certificates that issue Border identities (announcement signatures and
 *                      Border server certificates)
 * @param domain        the SPIFFE trust domain
 * @param maxClockSkew  how far an announcement's {@code publishedAt} may lie in the future
 * @param checkInterval how often the files are compared for a rotation
 */
@ConfigurationProperties("egress.trust")
public record TrustProperties(
        @DefaultValue("") String certificate,
        @DefaultValue("") String privateKey,
        @DefaultValue("") String borderCa,
        @DefaultValue("egress.local") String domain,
        @DefaultValue("30s") Duration maxClockSkew,
        @DefaultValue("2s") Duration checkInterval) {

    /** Trims the paths. */
    public TrustProperties {
        certificate = certificate == null ? "" : certificate.trim();
        privateKey = privateKey == null ? "" : privateKey.trim();
        borderCa = borderCa == null ? "" : borderCa.trim();
    }

    TrustFiles files() {
        return new TrustFiles(certificate, privateKey, "egress.trust.border-ca", borderCa, checkInterval);
    }
}
