package dev.egress.discovery.web.forward;

import org.jspecify.annotations.Nullable;

/**
 * The body of an IP release ({@code {"released":true}}): what App sends to {@link BorderPaths#IP_RELEASE} when an
 * operator moves a dedicated IP to another Border, and what an operator sends to the Border's own
 * {@code PUT /ops/v1/ips/{ip}/release}. A released IP stays hosted but is announced {@code DISABLED} with the
 * reason {@code released}, which is no claim of the IP; {@code false} claims it again.
 *
 * @param released whether the Border gives up its claim, or null when the body did not say (refused)
 */
public record IpRelease(@Nullable Boolean released) {}
