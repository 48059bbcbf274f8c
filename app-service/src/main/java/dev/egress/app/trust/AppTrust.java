package dev.egress.app.trust;

import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.ReloadingFile;
import dev.egress.discovery.trust.TlsProvider;
import dev.egress.discovery.trust.TrustBundle;
import java.util.Optional;

/**
 * Whether App runs on the trust chain or in {@code insecure-local} mode. One bean, so that nothing
 * guesses from nulls.
 *
 * @param material the loaded trust material; empty in {@code insecure-local} mode
 * @param domain   the SPIFFE trust domain
 * @param tls      the TLS implementation calls to Borders use ({@code egress.tls.provider})
 */
public record AppTrust(Optional<Material> material, String domain, TlsProvider.Choice tls) implements AutoCloseable {

    /**
     * App's identity and the Border CA, both re-read from their files when they change.
     *
     * @param identity App's client certificate chain and key
     * @param borderCa the CA certificates issuing Border identities
     */
    public record Material(ReloadingFile<Identity> identity, ReloadingFile<TrustBundle> borderCa) {}

    /**
     * Whether App verifies announcements and Borders.
     *
     * @return true with trust material
     */
    public boolean secure() {
        return material.isPresent();
    }

    /**
     * The TLS of calls to Borders.
     *
     * @return the Border TLS; empty in {@code insecure-local} mode
     */
    public Optional<BorderTls> borderTls() {
        return material.map(m -> new BorderTls(m, domain, tls));
    }

    /** Stops watching the files. */
    @Override
    public void close() {
        material.ifPresent(m -> {
            m.identity().close();
            m.borderCa().close();
        });
    }
}
