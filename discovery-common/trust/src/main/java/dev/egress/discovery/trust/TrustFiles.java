package dev.egress.discovery.trust;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The three files that place a service in the platform's PKI ({@code egress.trust.*}): its own
 * certificate chain, its private key, and the CA issuing the peers it trusts. The App and a Border differ
 * only in whose CA the third file holds ({@code border-ca} on the App, {@code app-ca} on a Border), so the
 * all-or-none rule and the loading of the files live here once.
 *
 * @param certificate    path of the PEM certificate chain, leaf first; empty when not set
 * @param privateKey     path of the PEM PKCS#8 private key; empty when not set
 * @param peerCaProperty the property naming the peer CA, e.g. {@code egress.trust.border-ca}
 * @param peerCa         path of the PEM peer CA certificates; empty when not set
 * @param checkInterval  how often the files are compared for a rotation
 */
public record TrustFiles(
        String certificate, String privateKey, String peerCaProperty, String peerCa, Duration checkInterval) {

    /** The property naming the certificate chain. */
    public static final String CERTIFICATE = "egress.trust.certificate";
    /** The property naming the private key. */
    public static final String PRIVATE_KEY = "egress.trust.private-key";

    /**
     * Whether any of the three files is configured.
     *
     * @return true if at least one path is set
     */
    public boolean anySet() {
        return !certificate.isEmpty() || !privateKey.isEmpty() || !peerCa.isEmpty();
    }

    /**
     * The three properties, as a refusal to start without them names them.
     *
     * @return e.g. {@code "egress.trust.certificate, egress.trust.private-key, egress.trust.app-ca"}
     */
    public String names() {
        return String.join(", ", CERTIFICATE, PRIVATE_KEY, peerCaProperty);
    }

    /**
     * Refuses a configuration that sets some of the files but not all.
     *
     * @throws TrustMaterialException naming the properties that are missing
     */
    public void requireAll() {
        List<String> missing = new ArrayList<>();
        if (certificate.isEmpty()) {
            missing.add(CERTIFICATE);
        }
        if (privateKey.isEmpty()) {
            missing.add(PRIVATE_KEY);
        }
        if (peerCa.isEmpty()) {
            missing.add(peerCaProperty);
        }
        if (!missing.isEmpty()) {
            throw new TrustMaterialException(String.join(", ", missing) + ": not set (expected: all of "
                    + CERTIFICATE + ", " + PRIVATE_KEY + " and " + peerCaProperty + ", or none with "
                    + "egress.security.insecure-local=true)");
        }
    }

    /**
     * Starts watching the service's own certificate chain and key.
     *
     * @return the identity, re-read when the files change
     * @throws TrustMaterialException if the files cannot be read or do not match
     */
    public ReloadingFile<Identity> watchIdentity() {
        return ReloadingFile.identity(
                Path.of(certificate), Path.of(privateKey), CERTIFICATE, PRIVATE_KEY, checkInterval);
    }

    /**
     * Starts watching the peer CA.
     *
     * @return the CA certificates, re-read when the file changes
     * @throws TrustMaterialException if the file cannot be read
     */
    public ReloadingFile<TrustBundle> watchPeerCa() {
        return ReloadingFile.bundle(Path.of(peerCa), peerCaProperty, checkInterval);
    }
}
