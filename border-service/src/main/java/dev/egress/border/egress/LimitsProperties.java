package dev.egress.border.egress;

import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Per-request limits of the forward endpoint ({@code egress.limits.*}).
 *
 * @param maxConcurrencyPerIp calls in flight per dedicated IP; one more is refused with 429. Thousands by default:
 *                            a slow call holds a connection and a few KB, not a thread, and what really bounds
 *                            one IP is its ports per destination (docs/configuration/limits.md)
 * @param maxRequestBody      cap on the body to send to the target; larger is refused with 413
 * @param maxResponseBody     how much of the target's response body is kept (the rest is read and dropped)
 * @param connectTimeout      TCP (and TLS) connect timeout towards the target
 * @param responseTimeout     how long the target may stay silent once the request was sent
 * @param callTimeout         limit of the whole call, from admission to the target's last byte; it bounds
 *                            what the two timeouts above cannot, such as a target that trickles its answer
 *                            a byte at a time, so no call holds a concurrency slot for ever
 */
@Validated
@ConfigurationProperties("egress.limits")
public record LimitsProperties(
        @DefaultValue("4096") @Min(1) int maxConcurrencyPerIp,
        @DefaultValue("1MB") DataSize maxRequestBody,
        @DefaultValue("64KB") DataSize maxResponseBody,
        @DefaultValue("5s") Duration connectTimeout,
        @DefaultValue("30s") Duration responseTimeout,
        @DefaultValue("35s") Duration callTimeout) {

    /** Checks the whole-call limit, which the annotations cannot express for a {@link Duration}. */
    public LimitsProperties {
        if (callTimeout.isNegative() || callTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "egress.limits.call-timeout: %s (expected: a positive duration)".formatted(callTimeout));
        }
    }
}
