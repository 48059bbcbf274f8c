package dev.egress.app.server;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Deadlines of App's listening port against slow clients. A connection costs the App a socket and
 * buffers however slowly its client sends, so each phase of reading a request has a deadline, not only
 * an idle limit (which a client sending one byte now and then never reaches). The wait between requests
 * on a kept-alive connection is Spring Boot's {@code server.netty.idle-timeout}.
 *
 * @param requestHeaderTimeout a connection must deliver a request's complete headers within this, counted
 *                             from its first byte (or from the connection's opening for its first request);
 *                             otherwise it is closed without an answer
 * @param requestBodyTimeout   the request body must be read completely within this after the headers;
 *                             otherwise the connection is closed
 */
@Validated
@ConfigurationProperties("egress.server")
public record ListenerProperties(
        @DefaultValue("10s") @NotNull Duration requestHeaderTimeout,
        @DefaultValue("30s") @NotNull Duration requestBodyTimeout) {

    /** Checks that both deadlines are positive: zero would close every connection at once. */
    public ListenerProperties {
        if (requestHeaderTimeout != null && (requestHeaderTimeout.isNegative() || requestHeaderTimeout.isZero())) {
            throw new IllegalArgumentException(
                    "egress.server.request-header-timeout: %s (expected: > 0)".formatted(requestHeaderTimeout));
        }
        if (requestBodyTimeout != null && (requestBodyTimeout.isNegative() || requestBodyTimeout.isZero())) {
            throw new IllegalArgumentException(
                    "egress.server.request-body-timeout: %s (expected: > 0)".formatted(requestBodyTimeout));
        }
    }
}
