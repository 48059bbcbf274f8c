/**
 * The trust chain's primitives: SPIFFE workload identities ({@link dev.egress.discovery.trust.SpiffeId}),
 * signed announcements ({@link dev.egress.discovery.trust.AnnouncementSigner} on Borders,
 * {@link dev.egress.discovery.trust.AnnouncementVerifier} in App), and the TLS key and trust managers of
 * mutual TLS between App and Border ({@link dev.egress.discovery.trust.IdentityKeyManager},
 * {@link dev.egress.discovery.trust.PeerTrustManager}), all reloading their files without a restart. See
 * docs/architecture.md ("The trust chain") and docs/security.md.
 */
@NullMarked
package dev.egress.discovery.trust;

import org.jspecify.annotations.NullMarked;
