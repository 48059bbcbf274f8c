package dev.egress.app.delivery.backlog;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the durable backlog is sampled for the gauges and the fleet view ({@code egress.delivery.backlog.*}).
 *
 * @param sampleInterval how often one task counts the store (not per scrape: a count reads the due and dead rows)
 * @param maxRows        the most rows one count reads; beyond it the counts are lower bounds
 */
@ConfigurationProperties("egress.delivery.backlog")
public record BacklogProperties(
        @DefaultValue("15s") Duration sampleInterval,
        @DefaultValue("100000") int maxRows) {

    /** Checks both. */
    public BacklogProperties {
        if (sampleInterval.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException(
                    "egress.delivery.backlog.sample-interval: %s (expected: >= 100ms)".formatted(sampleInterval));
        }
        if (maxRows < 1) {
            throw new IllegalArgumentException(
                    "egress.delivery.backlog.max-rows: %s (expected: > 0)".formatted(maxRows));
        }
    }
}
