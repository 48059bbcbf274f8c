package dev.egress.discovery.web.forward;

import org.jspecify.annotations.Nullable;

/**
 * The body of an IP status change ({@code {"status":"DRAINING"}}): what App sends to {@link BorderPaths#IP}
 * and what an operator sends to the Border's own {@code PUT /ops/v1/ips/{ip}}. The status stays a string here:
 * the Border validates it and answers a wrong one with a problem naming the choices.
 *
 * @param status the IP status's name, or null when the body did not carry one (refused by the Border)
 */
public record IpStatusChange(@Nullable String status) {}
