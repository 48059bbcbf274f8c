package dev.egress.app.delivery.buckets;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the delivery table is split between Apps ({@code egress.delivery.buckets.*}).
 *
 * @param count          the buckets; every App must use the same number (a record's bucket is fixed at acceptance)
 * @param node           the coordination node holding the {@code workers} and {@code bucket-<n>} semaphores, relative
 *                       to the delivery store's database; created when missing
 * @param sessionTimeout how long the node keeps the buckets of an App it no longer hears from: a dead App's buckets
 *                       move to the others after this (plus one check)
 * @param checkInterval  how often an App counts the live Apps and moves towards its share
 */
@ConfigurationProperties("egress.delivery.buckets")
public record BucketProperties(
        @DefaultValue("64") int count,
        @DefaultValue("egress-delivery") String node,
        @DefaultValue("10s") Duration sessionTimeout,
        @DefaultValue("1s") Duration checkInterval) {

    /** Checks the count (the rest is checked with the settings). */
    public BucketProperties {
        if (count < 1 || count > 4096) {
            throw new IllegalArgumentException(
                    "egress.delivery.buckets.count: %s (expected: 1 to 4096)".formatted(count));
        }
    }
}
