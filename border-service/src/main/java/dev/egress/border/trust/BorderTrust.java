package dev.egress.border.trust;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.PeerTrustManager;
import dev.egress.discovery.trust.ReloadingFile;
import dev.egress.discovery.trust.SpiffeId;
import dev.egress.discovery.trust.TrustBundle;

/**
 * The Border's loaded trust material: its identity (served in TLS, used to sign announcements) and the
 * App CA (checked on every client certificate). Both are re-read from their files when they change.
 *
 * @param identity the Border's certificate chain and key
 * @param appCa    the CA certificates issuing App identities
 * @param id       the SPIFFE id the identity must keep naming
 * @param apps     the trust manager for App client certificates
 */
public record BorderTrust(
        ReloadingFile<Identity> identity, ReloadingFile<TrustBundle> appCa, SpiffeId id, PeerTrustManager apps) {

    /**
     * Assembles the material for one Border.
     *
     * @param identity    the identity files
     * @param appCa       the App CA file
     * @param trustDomain the trust domain
     * @param borderId    this Border
     * @return the material
     */
    public static BorderTrust of(
            ReloadingFile<Identity> identity, ReloadingFile<TrustBundle> appCa, String trustDomain, BorderId borderId) {
        return new BorderTrust(
                identity, appCa, SpiffeId.border(trustDomain, borderId), PeerTrustManager.apps(appCa, trustDomain));
    }
}
