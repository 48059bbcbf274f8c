package dev.egress.border.config;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * SSRF guard opt-outs ({@code egress.ssrf.*}).
 *
 * @param allowedRanges CIDRs (or single addresses) exempt from the deny list; logged at startup.
 *                      They never exempt the Border's own listening sockets.
 */
@Validated
@ConfigurationProperties("egress.ssrf")
public record SsrfProperties(@DefaultValue List<String> allowedRanges) {
}
