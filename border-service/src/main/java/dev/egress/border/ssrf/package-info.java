/**
 * The SSRF guard at the egress hop: {@link dev.egress.border.ssrf.SsrfGuard} vets URLs and resolved
 * addresses, {@link dev.egress.border.ssrf.VettingResolverGroup} resolves each name once and hands Netty
 * only vetted addresses, {@code DenyList} and {@link dev.egress.border.ssrf.OwnAddresses} say what is
 * denied, and {@link dev.egress.border.ssrf.DenialReason} says why. See docs/architecture.md ("The SSRF
 * guard").
 */
@NullMarked
package dev.egress.border.ssrf;

import org.jspecify.annotations.NullMarked;
