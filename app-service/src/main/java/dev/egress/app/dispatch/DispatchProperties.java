package dev.egress.app.dispatch;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * How deliveries are sent through Borders.
 *
 * @param attemptTimeout          time limit of one call to a Border, which includes the target's answer: keep it
 *                                above the Border's egress.limits.call-timeout (35s by default), so a slow
 *                                target is reported by the Border as 504 and does not count against the Border
 * @param overallTimeout          time limit of a whole delivery, retries included
 * @param connectTimeout          TCP connect limit to a Border; a connect failure is retried elsewhere
 * @param maxAttempts             Border calls per delivery at most (1 = never retry)
 * @param retryBudgetRatio        retries allowed per delivery in the long run
 * @param retryBudgetBurst        retries that may be spent at once
 * @param maxRequestSize          largest accepted {@code POST /v1/deliveries} body (413 above)
 * @param maxConnectionsPerBorder pooled connections to one Border endpoint
 * @param pendingAcquireMax       requests that may wait for a pooled connection to one Border (429 above)
 * @param connectionIdleTimeout   idle pooled connections to a Border are closed after this
 * @param idempotencyWindow       how long an {@code Idempotency-Key} is remembered
 * @param idempotencyMaxEntries   how many keys are remembered at most (oldest evicted first)
 * @param maxInFlight             deliveries in flight in this App at most (429 too-many-in-flight above); bounds
 *                                the memory held by requests and keeps a burst from queueing behind Borders
 * @param maxInFlightPerTenant    deliveries of one tenant in flight in this App at most (429 above): below a
 *                                Border's per-IP limit, so one slow tenant cannot fill a shared IP by itself
 */
@Validated
@ConfigurationProperties("egress.dispatch")
public record DispatchProperties(
        @DefaultValue("40s") @NotNull Duration attemptTimeout,
        @DefaultValue("60s") @NotNull Duration overallTimeout,
        @DefaultValue("2s") @NotNull Duration connectTimeout,
        @DefaultValue("3") @Min(1) @Max(10) int maxAttempts,
        @DefaultValue("0.2") @DecimalMin(value = "0", inclusive = false) @DecimalMax("1") double retryBudgetRatio,
        @DefaultValue("20") @Min(1) int retryBudgetBurst,
        @DefaultValue("1MB") @NotNull DataSize maxRequestSize,
        @DefaultValue("256") @Min(1) int maxConnectionsPerBorder,
        @DefaultValue("1024") @Min(1) int pendingAcquireMax,
        @DefaultValue("30s") @NotNull Duration connectionIdleTimeout,
        @DefaultValue("24h") @NotNull Duration idempotencyWindow,
        @DefaultValue("100000") @Min(1) int idempotencyMaxEntries,
        @DefaultValue("4096") @Min(1) int maxInFlight,
        @DefaultValue("128") @Min(1) int maxInFlightPerTenant) {
}
