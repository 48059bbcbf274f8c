/**
 * App's tunnel call, {@code POST /internal/v1/tunnel} (the forward proxy's CONNECT): {@code TunnelController}
 * (the door and the splice), {@code TunnelService} (deadline, hosted, ACTIVE, not draining, SSRF vetting, the
 * per-IP tunnel limit, then a TCP connect from a socket bound to the dedicated IP), {@code OpenTunnels} (the
 * counts, and closing what is left at the end of the drain) and {@code TunnelMetrics}.
 */
@NullMarked
package dev.egress.border.tunnel;

import org.jspecify.annotations.NullMarked;
