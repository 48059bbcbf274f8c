package dev.egress.app.delivery;

import dev.egress.app.tenants.RetryDelays;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The global retry schedule of durable deliveries ({@code egress.delivery.retry.*}); a tenant's
 * {@code retrySchedule} in the tenants file replaces {@code schedule} for that tenant, the rest applies to all.
 * Checked when bound, so a bad value stops the App at startup with the rule it broke.
 *
 * @param schedule        the delay before each attempt, the first one after acceptance (default: immediately,
 *                        5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); its length is the number of attempts
 * @param jitter          each delay is spread by up to this fraction either way, so webhooks that failed together
 *                        do not come back together (0 to 0.5)
 * @param retryAfterFloor the shortest wait a target's {@code Retry-After} can ask for: a target answering
 *                        {@code Retry-After: 0} is not retried in a tight loop
 * @param retryAfterCeiling the longest wait a {@code Retry-After} can ask for: a target cannot park a webhook
 *                        for days
 */
@Validated
@ConfigurationProperties("egress.delivery.retry")
public record RetryProperties(
        @DefaultValue({"0s", "5s", "5m", "30m", "2h", "5h", "10h", "10h"})
        List<Duration> schedule,

        @DefaultValue("0.2") double jitter,
        @DefaultValue("5s") Duration retryAfterFloor,
        @DefaultValue("10h") Duration retryAfterCeiling) {

    /** Checks every rule; the message names the property. */
    public RetryProperties {
        try {
            schedule = new RetryDelays(schedule).delays();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            throw new IllegalArgumentException(
                    "egress.delivery.retry.schedule" + (message.startsWith("[") ? message : ": " + message), null);
        }
        RetrySchedule.check(jitter, retryAfterFloor, retryAfterCeiling);
    }

    /**
     * The schedule of a tenant.
     *
     * @param own the tenant's own delays from the tenants file, or null for the global ones
     * @return the schedule
     */
    public RetrySchedule forTenant(@Nullable RetryDelays own) {
        return new RetrySchedule(
                own == null ? new RetryDelays(schedule) : own, jitter, retryAfterFloor, retryAfterCeiling);
    }
}
