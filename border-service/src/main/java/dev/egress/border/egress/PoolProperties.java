package dev.egress.border.egress;

import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Keep-alive connection pools, one per (source IP, destination host:port) ({@code egress.pool.*}). Reuse is
 * what keeps a single source IP from exhausting its ephemeral ports (docs/architecture.md,
 * "Bound sockets and connection reuse").
 *
 * @param maxConnections        open connections per (source IP, destination): one per call in flight to that
 *                              destination (HTTP/1.1), so it matches the per-IP limit by default and one slow
 *                              destination may use all of an IP's calls (docs/configuration/limits.md)
 * @param maxIdleTime           an idle connection is closed after this long
 * @param maxLifeTime           any connection is retired after this long (picks up DNS changes)
 * @param pendingAcquireTimeout how long a call may wait for a pooled connection before 503
 * @param evictionInterval      how often idle and expired connections are evicted in the background
 */
@Validated
@ConfigurationProperties("egress.pool")
public record PoolProperties(
        @DefaultValue("4096") @Min(1) int maxConnections,
        @DefaultValue("30s") Duration maxIdleTime,
        @DefaultValue("5m") Duration maxLifeTime,
        @DefaultValue("10s") Duration pendingAcquireTimeout,
        @DefaultValue("10s") Duration evictionInterval) {}
