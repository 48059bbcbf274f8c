package dev.egress.border.ssrf;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * SSRF guard opt-outs and operator additions ({@code egress.ssrf.*}). Entries are parsed strictly at
 * startup; a bad entry stops the Border with a message naming the property and the entry.
 *
 * @param allowedRanges CIDRs (or single addresses) exempt from the deny list, each optionally limited
 *                      to a port or port range ({@code 127.0.0.1/32:9999}, {@code 10.0.0.0/8:8000-8999});
 *                      logged at startup. Only an entry with ports reopens an address of the Border's
 *                      own host; nothing reopens the Border's own listening sockets.
 * @param deniedRanges  operator CIDRs (e.g. the cluster's pod and service ranges) that no allowed range
 *                      can reopen
 */
@Validated
@ConfigurationProperties("egress.ssrf")
public record SsrfProperties(
        @DefaultValue List<String> allowedRanges,
        @DefaultValue List<String> deniedRanges) {}
