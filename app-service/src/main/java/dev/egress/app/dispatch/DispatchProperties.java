package dev.egress.app.dispatch;

import dev.egress.app.attempts.AttemptPolicy;
import dev.egress.app.fleet.LinkSettings;
import jakarta.validation.Valid;
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
 * @param maxBorderAnswerSize     largest Border answer App reads into memory; a larger one fails the attempt as
 *                                a Border fault ({@code border-error}, not retried: the target may have been
 *                                reached). The default covers the Border's default answer, whose body is capped
 *                                at egress.limits.max-response-body (64KB) and may grow up to 6 times in JSON
 *                                (a control character is escaped as six bytes), plus its headers; raise it with
 *                                the Border's cap
 * @param maxConnectionsPerBorder pooled connections to one Border endpoint
 * @param pendingAcquireMax       requests that may wait for a pooled connection (HTTP/2: a free stream) to one
 *                                Border; beyond it the attempt fails as not sent
 * @param borderHttp2             speak HTTP/2 to Borders (h2 over the mutual-TLS link, negotiated with ALPN; h2c
 *                                with prior knowledge in insecure-local mode), so thousands of slow calls share
 *                                a few connections; false keeps one call per HTTP/1.1 connection (a Border
 *                                older than 0.3 speaks only HTTP/1.1 in plaintext)
 * @param maxStreamsPerConnection HTTP/2 calls carried by one connection to a Border at most; more calls open
 *                                another connection (up to {@code maxConnectionsPerBorder}), which spreads
 *                                them over the Border's event loops
 * @param connectionIdleTimeout   idle pooled connections to a Border are closed after this
 * @param pingInterval            HTTP/2: a PING goes out on a connection to a Border from which nothing has
 *                                been read for this long; new calls to that Border wait for its answer
 * @param pingTimeout             HTTP/2: a connection that has read nothing this long after a PING is closed
 *                                (abortively: what it had not delivered is dropped, never sent late), and the
 *                                calls that waited go elsewhere as not sent; with {@code pingInterval}, the
 *                                bound on how long a silent link goes unnoticed
 * @param deadlineMargin          subtracted from the moment App gives up on an attempt to make the deadline it
 *                                sends the Border, so that a Border clock behind App's by up to this much still
 *                                refuses a late forward; below {@code attemptTimeout}
 * @param idempotency             the {@code Idempotency-Key} store
 * @param maxInFlight             deliveries in flight in this App at most (429 too-many-in-flight above); bounds
 *                                the memory held by requests and keeps a burst from queueing behind Borders
 * @param maxInFlightPerTenant    deliveries of one tenant in flight in this App at most (429 above): below a
 *                                Border's per-IP limit, so one slow tenant cannot fill a shared IP by itself
 *                                (docs/configuration/limits.md)
 */
@Validated
@ConfigurationProperties("egress.dispatch")
public record DispatchProperties(
        @DefaultValue("40s") @NotNull Duration attemptTimeout,
        @DefaultValue("60s") @NotNull Duration overallTimeout,
        @DefaultValue("2s") @NotNull Duration connectTimeout,
        @DefaultValue("3") @Min(1) @Max(10) int maxAttempts,

        @DefaultValue("0.2") @DecimalMin(value = "0", inclusive = false) @DecimalMax("1")
        double retryBudgetRatio,

        @DefaultValue("20") @Min(1) int retryBudgetBurst,
        @DefaultValue("1MB") @NotNull DataSize maxRequestSize,
        @DefaultValue("512KB") @NotNull DataSize maxBorderAnswerSize,
        @DefaultValue("256") @Min(1) int maxConnectionsPerBorder,
        @DefaultValue("1024") @Min(1) int pendingAcquireMax,
        @DefaultValue("true") boolean borderHttp2,
        @DefaultValue("100") @Min(1) int maxStreamsPerConnection,
        @DefaultValue("30s") @NotNull Duration connectionIdleTimeout,
        @DefaultValue("250ms") @NotNull Duration pingInterval,
        @DefaultValue("750ms") @NotNull Duration pingTimeout,
        @DefaultValue("250ms") @NotNull Duration deadlineMargin,
        @DefaultValue @NotNull @Valid Idempotency idempotency,
        @DefaultValue("4096") @Min(1) int maxInFlight,
        @DefaultValue("2048") @Min(1) int maxInFlightPerTenant) {

    /** Checks the liveness and deadline settings against each other. */
    public DispatchProperties {
        positive("egress.dispatch.ping-interval", pingInterval);
        positive("egress.dispatch.ping-timeout", pingTimeout);
        if (deadlineMargin != null && deadlineMargin.isNegative()) {
            throw new IllegalArgumentException(
                    "egress.dispatch.deadline-margin: %s (expected: >= 0)".formatted(deadlineMargin));
        }
        if (deadlineMargin != null && attemptTimeout != null && deadlineMargin.compareTo(attemptTimeout) >= 0) {
            throw new IllegalArgumentException("egress.dispatch.deadline-margin: %s (expected: < attempt-timeout %s)"
                    .formatted(deadlineMargin, attemptTimeout));
        }
    }

    /**
     * The settings of App's links to Borders (pool, protocol, PING liveness), as the fleet takes them.
     *
     * @return the link settings
     */
    public LinkSettings linkSettings() {
        return new LinkSettings(
                maxConnectionsPerBorder,
                pendingAcquireMax,
                attemptTimeout,
                connectionIdleTimeout,
                borderHttp2,
                maxStreamsPerConnection,
                connectTimeout,
                pingInterval,
                pingTimeout);
    }

    private static void positive(String name, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException("%s: %s (expected: > 0)".formatted(name, value));
        }
    }

    /**
     * The {@code Idempotency-Key} store: in memory per App instance, bounded in bytes.
     *
     * @param window      how long an outcome is remembered after the delivery ended
     * @param maxSize     estimated memory of all remembered outcomes at most; beyond it the least useful
     *                    entries are evicted (Caffeine's size eviction)
     * @param maxBodySize how much of the target's body a remembered outcome keeps; a replay of a longer
     *                    body says {@code bodyTruncated} and carries the whole body's {@code bodySha256}
     */
    public record Idempotency(
            @DefaultValue("24h") @NotNull Duration window,
            @DefaultValue("64MB") @NotNull DataSize maxSize,
            @DefaultValue("4KB") @NotNull DataSize maxBodySize) {

        /** Checks the sizes: a store that can hold nothing would silently disable idempotency. */
        public Idempotency {
            if (window != null && (window.isNegative() || window.isZero())) {
                throw new IllegalArgumentException(
                        "egress.dispatch.idempotency.window: %s (expected: > 0)".formatted(window));
            }
            if (maxSize != null && maxSize.toBytes() < 64 * 1024) {
                throw new IllegalArgumentException(
                        "egress.dispatch.idempotency.max-size: %s (expected: >= 64KB)".formatted(maxSize));
            }
            if (maxBodySize != null && (maxBodySize.toBytes() < 0 || maxBodySize.toBytes() > Integer.MAX_VALUE / 4)) {
                throw new IllegalArgumentException(
                        "egress.dispatch.idempotency.max-body-size: %s (expected: 0..512MB)".formatted(maxBodySize));
            }
        }
    }

    /**
     * The rules of a delivery's attempts, for the attempt engine.
     *
     * @return max attempts, attempt timeout, deadline margin, PING wait and the Border answer's cap
     */
    public AttemptPolicy attemptPolicy() {
        return new AttemptPolicy(maxAttempts, attemptTimeout, deadlineMargin, pingTimeout, (int)
                Math.min(Integer.MAX_VALUE, maxBorderAnswerSize.toBytes()));
    }
}
