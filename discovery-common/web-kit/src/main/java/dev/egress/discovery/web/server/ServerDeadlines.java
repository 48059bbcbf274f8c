package dev.egress.discovery.web.server;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;
import reactor.netty.http.server.HttpServer;

/**
 * Deadlines of a service's listening port against slow clients ({@code egress.server.*}), one record for App
 * and Border. A connection costs a socket and buffers however slowly its client sends, and authentication
 * happens only once a request's headers are in, so each phase of reading a request has a deadline, not only an
 * idle limit (which a client sending one byte now and then never reaches). The wait between requests on a
 * kept-alive connection is Spring Boot's {@code server.netty.idle-timeout}.
 *
 * @param requestHeaderTimeout a request's complete headers must arrive within this (App counts from the
 *                             connection's opening for its first request, the Border from the first byte);
 *                             otherwise the connection is closed without an answer
 * @param requestBodyTimeout   the request body must be read completely within this after the headers
 *                             (Reactor Netty's request timeout); otherwise 408 and the connection is closed
 * @param requestTimeout       deprecated spelling of {@code request-body-timeout} (the Border's before both
 *                             services shared this record); set at most one of the two
 * @param idleTimeout          deprecated: when set, overrides {@code server.netty.idle-timeout} (the Border's
 *                             spelling before both services shared this record)
 */
@Validated
@ConfigurationProperties("egress.server")
public record ServerDeadlines(
        @DefaultValue("10s") Duration requestHeaderTimeout,
        Duration requestBodyTimeout,
        @Nullable Duration requestTimeout,
        @Nullable Duration idleTimeout) {

    /** The body deadline when neither spelling is set. */
    public static final Duration DEFAULT_REQUEST_BODY_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Checks that every deadline is positive (zero would close every connection at once) and that the body
     * deadline is set under one name at most; fills it from the deprecated spelling or the default.
     */
    @SuppressWarnings("ConstantValue") // the binder passes null for an absent property without a default
    public ServerDeadlines {
        positive("request-header-timeout", requestHeaderTimeout);
        if (requestTimeout != null) {
            positive("request-timeout", requestTimeout);
        }
        if (requestBodyTimeout != null) {
            positive("request-body-timeout", requestBodyTimeout);
            if (requestTimeout != null) {
                throw new IllegalArgumentException(
                        "egress.server.request-timeout: %s (expected: unset; it is the deprecated spelling of"
                                        .formatted(requestTimeout)
                                + " egress.server.request-body-timeout, which is set too)");
            }
        } else {
            requestBodyTimeout = requestTimeout != null ? requestTimeout : DEFAULT_REQUEST_BODY_TIMEOUT;
        }
        if (idleTimeout != null) {
            positive("idle-timeout", idleTimeout);
        }
    }

    /** The defaults: what a service binds when nothing is set. */
    public static ServerDeadlines defaults() {
        return new ServerDeadlines(Duration.ofSeconds(10), null, null, null);
    }

    private static void positive(String name, @Nullable Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(
                    "egress.server.%s: %s (expected: a positive duration)".formatted(name, value));
        }
    }

    /**
     * The deprecated spelling of {@link #requestBodyTimeout()}, as bound.
     *
     * @return the value set under {@code egress.server.request-timeout}, or null
     */
    @Override
    @Deprecated(since = "0.3.0")
    @DeprecatedConfigurationProperty(replacement = "egress.server.request-body-timeout", since = "0.3.0")
    public @Nullable Duration requestTimeout() {
        return requestTimeout;
    }

    /**
     * The deprecated Border property that overrides Spring Boot's {@code server.netty.idle-timeout}.
     *
     * @return the value set under {@code egress.server.idle-timeout}, or null
     */
    @Override
    @Deprecated(since = "0.3.0")
    @DeprecatedConfigurationProperty(replacement = "server.netty.idle-timeout", since = "0.3.0")
    public @Nullable Duration idleTimeout() {
        return idleTimeout;
    }

    /**
     * Puts the body deadline (and the deprecated idle override, when set) on a listener; the header deadline
     * needs a handler in the pipeline ({@link RequestHeaderDeadline}), which each service places itself.
     *
     * @param server the listener being configured
     * @return the listener with the deadlines
     */
    @SuppressWarnings("deprecation") // applies the deprecated override while it exists
    public HttpServer applyTo(HttpServer server) {
        HttpServer withBody = server.requestTimeout(requestBodyTimeout);
        return idleTimeout == null ? withBody : withBody.idleTimeout(idleTimeout);
    }
}
