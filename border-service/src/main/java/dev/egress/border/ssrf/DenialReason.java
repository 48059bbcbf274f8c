package dev.egress.border.ssrf;

import dev.egress.discovery.web.problem.ProblemReason;

/** Why the SSRF guard refused a target; rendered as the {@code reason} of a 403 {@code target-denied} problem. */
public enum DenialReason implements ProblemReason {
    /** The URL is not absolute or does not parse. */
    INVALID_URL,
    /** Only {@code http} and {@code https} are allowed. */
    SCHEME_NOT_ALLOWED,
    /** {@code user:pass@host} is refused: it is a classic way to disguise the real host. */
    USERINFO_NOT_ALLOWED,
    /** The host is missing or is neither a valid name nor a valid IP literal. */
    INVALID_HOST,
    /** The port is outside 1..65535. */
    INVALID_PORT,
    /** The name did not resolve to any address. */
    UNRESOLVABLE,
    /** An address (or the IPv4 address embedded in it) is in the deny list and not explicitly allowed. */
    DENIED_RANGE,
    /**
     * The address belongs to this host (loopback, the wildcard, an interface address, or an IPv4
     * address embedded in a translation form), and no allowed range names its port; or it is one of
     * the Border's own listening sockets, which nothing reopens.
     */
    OWN_ADDRESS,
    /** The address (or the IPv4 address embedded in it) is in {@code egress.ssrf.denied-ranges}; nothing reopens it. */
    OPERATOR_DENIED,
    /** A tunnel's port is neither 443, 80 nor one {@code egress.tunnel.allowed-ports} adds. */
    PORT_NOT_ALLOWED;

    /** The wire form is the constant's name, e.g. {@code DENIED_RANGE}. */
    @Override
    public String code() {
        return name();
    }
}
