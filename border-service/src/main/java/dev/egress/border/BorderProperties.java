package dev.egress.border;

import dev.egress.discovery.registry.IpStatus;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Who this Border is and which dedicated IPs it hosts ({@code egress.border.*}).
 *
 * @param id            the Border's stable id, as announced ({@code [a-z0-9][a-z0-9-]{0,62}})
 * @param ips           the dedicated IPs (comma list), each an address or {@code bind=public} (behind a 1:1 NAT:
 *                      bind the first, announce and publish the second); each bind address must be bindable
 *                      at startup (see {@link HostedIps})
 * @param advertisedUrl the URL App uses to reach this Border
 * @param drainTimeout  on shutdown, how long in-flight calls may take to finish
 * @param initialStatus the status every IP is announced with at startup
 * @param allowLoopbackIps whether loopback addresses ({@code 127.0.0.0/8}, {@code ::1}) may be dedicated IPs;
 *                      only the local platform and tests set it (a target elsewhere can never see such a source)
 */
@Validated
@ConfigurationProperties("egress.border")
public record BorderProperties(
        @NotBlank String id,
        @NotEmpty List<String> ips,
        @NotNull URI advertisedUrl,
        @DefaultValue("20s") Duration drainTimeout,
        @DefaultValue("ACTIVE") IpStatus initialStatus,
        @DefaultValue("false") boolean allowLoopbackIps) {}
