/**
 * App's tunnel call, {@code POST /internal/v1/tunnel} (the forward proxy's CONNECT): {@code TunnelController}
 * (the door and the splice, which releases the tunnel's permit and asks the drain to close it at its end) and
 * {@code TunnelService} (admitted by the egress package's one gate, {@code EgressGate}, as a forward is; then a
 * TCP connect from a socket bound to the dedicated IP).
 */
@NullMarked
package dev.egress.border.tunnel;

import org.jspecify.annotations.NullMarked;
