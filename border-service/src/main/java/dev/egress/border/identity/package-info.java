/**
 * The Border proves its egress identity: {@link dev.egress.border.identity.EgressIdentityCheck} asks an
 * echo service outside the network ({@code egress.border.egress-check.url}, configured by
 * {@link dev.egress.border.identity.EgressCheckProperties}) which address each bind address really leaves
 * from, and withholds every IP whose answer is not its announced public address. A NAT or SNAT rule on the
 * way (a cloud's default source translation, a masquerading router) is invisible from inside the Border:
 * its socket is bound to the right address either way, so only the outside can tell.
 */
@NullMarked
package dev.egress.border.identity;

import org.jspecify.annotations.NullMarked;
