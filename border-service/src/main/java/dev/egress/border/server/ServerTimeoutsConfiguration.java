package dev.egress.border.server;

import dev.egress.border.trust.ClientCertificates;
import dev.egress.discovery.web.server.RequestHeaderDeadline;
import dev.egress.discovery.web.server.ServerDeadlines;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Puts {@link ServerDeadlines} ({@code egress.server.*}) on the Border's listening port (Reactor Netty server): the
 * body deadline, the HTTP/1.1 header deadline, and {@link Http2Guard} for HTTP/2 (header deadline and rapid-reset
 * limit).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ServerDeadlines.class)
class ServerTimeoutsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ServerTimeoutsConfiguration.class);

    /** Netty's own defaults (CVE-2023-44487), for connections without a verified App certificate. */
    static final int UNVERIFIED_RESETS_PER_WINDOW = 200;

    static final Duration UNVERIFIED_RESET_WINDOW = Duration.ofSeconds(30);

    @Bean
    NettyServerCustomizer slowClientDeadlines(
            ServerDeadlines timeouts, ClientCertificates clients, MeterRegistry meters) {
        log.info(
                "Listening port deadlines: request headers {} (HTTP/2 header blocks too), request body {};"
                        + " HTTP/2 stream resets without an App certificate: {} per {}",
                timeouts.requestHeaderTimeout(),
                timeouts.requestBodyTimeout(),
                UNVERIFIED_RESETS_PER_WINDOW,
                UNVERIFIED_RESET_WINDOW);
        Http2Guard.Limits limits = new Http2Guard.Limits(
                timeouts.requestHeaderTimeout(), UNVERIFIED_RESETS_PER_WINDOW, UNVERIFIED_RESET_WINDOW);
        Http2Guard.Events events = events(meters);
        return server -> timeouts.applyTo(server).doOnChannelInit((observer, channel, remote) -> {
            // Without trust material (insecure-local, local runs only) no client can be verified and
            // App's h2c connections must keep the codec's raised limit: every client counts as App.
            installHttp2Guard(channel, new Http2Guard(limits, ch -> !clients.enforced() || clients.isApp(ch), events));
            if (attach(channel, timeouts)) {
                return;
            }
            SslHandler tls = channel.pipeline().get(SslHandler.class);
            if (tls != null) {
                // TLS with ALPN: the HTTP/1.1 codec appears only once the handshake chose HTTP/1.1.
                channel.pipeline()
                        .addAfter(
                                channel.pipeline().context(tls).name(),
                                "egress.headerDeadline.alpn",
                                new ChannelInboundHandlerAdapter() {
                                    @Override
                                    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                                        // The negotiation handler after this one rebuilds the pipeline
                                        // synchronously.
                                        ctx.fireUserEventTriggered(event);
                                        if (event instanceof SslHandshakeCompletionEvent) {
                                            ctx.pipeline().remove(this);
                                            attach(ctx.channel(), timeouts);
                                        }
                                    }
                                });
            }
        });
    }

    /** In front of every codec: right behind TLS (decrypted bytes), or first on a plaintext port. */
    private static void installHttp2Guard(Channel channel, Http2Guard guard) {
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls == null) {
            channel.pipeline().addFirst(Http2Guard.NAME, guard);
        } else {
            channel.pipeline().addAfter(channel.pipeline().context(tls).name(), Http2Guard.NAME, guard);
        }
    }

    private static Http2Guard.Events events(MeterRegistry meters) {
        Counter headerTimeouts = Counter.builder("egress.server.http2.closed")
                .tag("reason", "header-timeout")
                .description("HTTP/2 connections closed because a header block did not complete within"
                        + " egress.server.request-header-timeout")
                .register(meters);
        Counter rapidResets = Counter.builder("egress.server.http2.closed")
                .tag("reason", "rapid-reset")
                .description("HTTP/2 connections without an App certificate closed for resetting more than "
                        + UNVERIFIED_RESETS_PER_WINDOW + " streams per " + UNVERIFIED_RESET_WINDOW)
                .register(meters);
        return new Http2Guard.Events() {
            @Override
            public void headerTimeout() {
                headerTimeouts.increment();
                log.debug("Closed an HTTP/2 connection: a header block did not complete in time");
            }

            @Override
            public void rapidReset() {
                rapidResets.increment();
                log.debug("Closed an HTTP/2 connection: too many stream resets");
            }
        };
    }

    /**
     * Puts the header deadline around the HTTP/1.1 decoder, wherever it sits (from the first byte: a silent
     * connection is the idle timeout's to close). HTTP/2 connections have none: their streams share frames.
     *
     * @return true when an HTTP/1.1 decoder was found (the deadline is attached, or already was)
     */
    private static boolean attach(Channel channel, ServerDeadlines timeouts) {
        return RequestHeaderDeadline.attachFromFirstByte(channel, timeouts.requestHeaderTimeout(), () -> {});
    }
}
