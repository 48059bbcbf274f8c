package dev.egress.app.routing;

import dev.egress.discovery.registry.RegistrySettings;
import dev.egress.discovery.registry.ydb.boot.WatcherPolling;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How deliveries are routed from the local snapshot.
 *
 * @param strategy        Border selection strategy for dedicated tenants: {@code lowest-border-id},
 *                        {@code round-robin}, {@code rendezvous} (keyed by tenant and URL) or {@code weighted}
 * @param sharedStrategy  the strategy for shared-pool tenants, keyed by tenant id alone, so that each tenant
 *                        stays on one IP while tenants spread over the pool ({@code rendezvous} by default)
 * @param weights         per-Border weights for {@code weighted} ({@code egress.routing.weights.<borderId>=N});
 *                        Borders not listed weigh 1
 * @param maxStaleness    once the registry has not confirmed the snapshot for this long, dedicated traffic
 *                        fails closed with 503
 * @param sharedWhenStale what shared-pool traffic does past {@code maxStaleness}
 * @param ejectAfter      consecutive failed attempts after which a Border is ejected (passive health)
 * @param recoveryHold    how long an ejected Border must go without failures before it takes traffic again
 * @param pollInterval    the registry watcher's safety-net poll period, at least 10 ms; these properties are
 *                        its one owner: the watcher receives it through {@link WatcherPolling}
 * @param retryAfter      the {@code Retry-After} sent with 503 {@code no-egress-available}
 * @param claimsSyncInterval how often this App's standing claims and the claims table are brought in step
 *                        ({@link ClaimsSync}; with durable delivery on only), at least 10 ms
 */
@Validated
@ConfigurationProperties("egress.routing")
public record RoutingProperties(
        @DefaultValue("lowest-border-id") @NotBlank String strategy,
        @DefaultValue("rendezvous") @NotBlank String sharedStrategy,
        @DefaultValue Map<String, Integer> weights,
        @DefaultValue("30s") @NotNull Duration maxStaleness,
        @DefaultValue("serve") @NotNull SharedWhenStale sharedWhenStale,
        @DefaultValue("3") @Min(1) int ejectAfter,
        @DefaultValue("30s") @NotNull Duration recoveryHold,

        @DefaultValue(WatcherPolling.DEFAULT_POLL_INTERVAL) @NotNull
        Duration pollInterval,

        @DefaultValue("5s") @NotNull Duration retryAfter,
        @DefaultValue("1s") @NotNull Duration claimsSyncInterval)
        implements WatcherPolling {

    private static final Duration MIN_CLAIMS_SYNC_INTERVAL = Duration.ofMillis(10);

    /** Refuses a poll or sync period the loops cannot run with, naming the property. */
    public RoutingProperties {
        if (pollInterval != null && pollInterval.compareTo(RegistrySettings.MIN_POLL_INTERVAL) < 0) {
            throw new IllegalArgumentException("egress.routing.poll-interval: %s (expected: at least %d ms)"
                    .formatted(pollInterval, RegistrySettings.MIN_POLL_INTERVAL.toMillis()));
        }
        if (claimsSyncInterval != null && claimsSyncInterval.compareTo(MIN_CLAIMS_SYNC_INTERVAL) < 0) {
            throw new IllegalArgumentException("egress.routing.claims-sync-interval: %s (expected: at least %d ms)"
                    .formatted(claimsSyncInterval, MIN_CLAIMS_SYNC_INTERVAL.toMillis()));
        }
    }

    /**
     * What shared-pool traffic does when the snapshot is older than {@code max-staleness}.
     */
    public enum SharedWhenStale {
        /**
         * Keep routing from the last good snapshot (default). Shared IPs are not allowlisted by any one
         * customer, so a stale route risks at worst a refused attempt (which is retried on another
         * Border), never a policy breach; failing would turn a registry outage into a total outage.
         */
        SERVE,
        /** Fail closed with 503, like dedicated traffic. */
        FAIL
    }
}
