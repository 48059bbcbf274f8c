package dev.egress.border.server;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Deadlines for clients of the Border's own listening port ({@code egress.server.*}). Authentication
 * happens only once a request's headers are in, so these are what stop an unauthenticated client from
 * holding sockets and memory by sending slowly.
 *
 * @param requestHeaderTimeout from the first byte of a request to its last header byte; a client that
 *                             trickles its headers (one byte every few seconds resets any idle timer)
 *                             is disconnected when it passes
 * @param requestTimeout       how long reading one request's body may take in all
 * @param idleTimeout          how long a connection may sit without any request in progress
 */
@Validated
@ConfigurationProperties("egress.server")
public record ServerTimeoutsProperties(
        @DefaultValue("10s") Duration requestHeaderTimeout,
        @DefaultValue("30s") Duration requestTimeout,
        @DefaultValue("120s") Duration idleTimeout) {

    /** Checks that every deadline is positive. */
    public ServerTimeoutsProperties {
        check("request-header-timeout", requestHeaderTimeout);
        check("request-timeout", requestTimeout);
        check("idle-timeout", idleTimeout);
    }

    private static void check(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(
                    "egress.server.%s: %s (expected: a positive duration)".formatted(name, value));
        }
    }
}
