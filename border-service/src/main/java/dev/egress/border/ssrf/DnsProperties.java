package dev.egress.border.ssrf;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the Border resolves webhook target names ({@code egress.dns.*}): without blocking, with bounded
 * time and bounded waiting per name, so that one tenant's unresponsive DNS stalls only its own deliveries.
 *
 * @param servers              DNS servers as {@code ip:port} ({@code [v6]:port}; port 53 when omitted);
 *                             empty: the system's ({@code /etc/resolv.conf})
 * @param queryTimeout         how long one DNS query may wait for an answer
 * @param resolveTimeout       how long one resolution may take in all (every query, retry and search
 *                             domain); past it the delivery answers 502 {@code dns-failed}
 * @param maxQueriesPerResolve the most DNS queries one resolution may send (CNAME chains, retries)
 * @param maxPendingPerName    the most connection attempts that may wait on one name's resolution at once;
 *                             more fail at once with 502 {@code dns-failed}
 */
@Validated
@ConfigurationProperties("egress.dns")
public record DnsProperties(
        @DefaultValue List<String> servers,
        @DefaultValue("2s") Duration queryTimeout,
        @DefaultValue("5s") Duration resolveTimeout,
        @DefaultValue("8") @Min(1) @Max(64) int maxQueriesPerResolve,
        @DefaultValue("64") @Min(1) int maxPendingPerName) {}
