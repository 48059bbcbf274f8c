package dev.egress.discovery.trust;

import java.security.GeneralSecurityException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CA certificates that issue one kind of identity (Border CA, App CA). Verifies a presented chain with
 * the JDK's PKIX validator: signatures up to one of these anchors, validity at a given time, CA
 * constraints. Revocation is not checked: certificates are short-lived and rotated instead (README,
 * "Certificate rotation").
 *
 * @param anchors the CA certificates, at least one
 */
public record TrustBundle(List<X509Certificate> anchors) {

    /** Requires at least one anchor. */
    public TrustBundle {
        if (anchors == null || anchors.isEmpty()) {
            throw new IllegalArgumentException("anchors: empty (expected: at least one CA certificate)");
        }
        anchors = List.copyOf(anchors);
    }

    /**
     * Verifies a chain presented by a peer (leaf first; the anchor itself may be included or not).
     *
     * @param chain the presented chain
     * @param at    the time at which every certificate must be valid
     * @throws UntrustedChainException naming why the chain is refused
     */
    public void verify(List<X509Certificate> chain, Instant at) {
        if (chain == null || chain.isEmpty()) {
            throw new UntrustedChainException("no certificate presented");
        }
        Set<X509Certificate> roots = new HashSet<>(anchors);
        List<X509Certificate> path = new ArrayList<>(chain.size());
        for (X509Certificate certificate : chain) {
            if (roots.contains(certificate)) {
                break; // the anchor closes the path; PKIX wants it out of the list
            }
            path.add(certificate);
        }
        if (path.isEmpty()) {
            throw new UntrustedChainException("the presented certificate is a CA certificate, not an identity");
        }
        try {
            Set<TrustAnchor> trustAnchors = new HashSet<>();
            for (X509Certificate anchor : anchors) {
                trustAnchors.add(new TrustAnchor(anchor, null));
            }
            PKIXParameters parameters = new PKIXParameters(trustAnchors);
            parameters.setRevocationEnabled(false);
            parameters.setDate(Date.from(at));
            CertPathValidator.getInstance("PKIX")
                    .validate(CertificateFactory.getInstance("X.509").generateCertPath(path), parameters);
        } catch (GeneralSecurityException e) {
            throw new UntrustedChainException(
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    /**
     * The earliest expiry in a chain: when a verification made now stops holding.
     *
     * @param chain a chain
     * @return the earliest {@code notAfter}
     */
    public static Instant expiryOf(List<X509Certificate> chain) {
        Instant earliest = Instant.MAX;
        for (X509Certificate certificate : chain) {
            Instant notAfter = certificate.getNotAfter().toInstant();
            if (notAfter.isBefore(earliest)) {
                earliest = notAfter;
            }
        }
        return earliest;
    }
}
