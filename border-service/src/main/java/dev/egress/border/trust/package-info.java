/**
 * The Border's side of the trust chain: its identity served in TLS and used to sign announcements
 * ({@link dev.egress.border.trust.BorderTrust}), the App-certificate check of the forward door
 * ({@link dev.egress.border.trust.ClientCertificates}), and {@link dev.egress.border.trust.TrustMode}
 * (trust chain or {@code insecure-local}).
 */
@NullMarked
package dev.egress.border.trust;

import org.jspecify.annotations.NullMarked;
