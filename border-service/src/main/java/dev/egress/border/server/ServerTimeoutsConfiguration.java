package dev.egress.border.server;

import dev.egress.discovery.server.RequestHeaderDeadline;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Puts {@link ServerTimeoutsProperties} on the Border's listening port (Reactor Netty server). */
@Configuration(proxyBeanMethods = false)
class ServerTimeoutsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ServerTimeoutsConfiguration.class);

    @Bean
    NettyServerCustomizer slowClientDeadlines(ServerTimeoutsProperties timeouts) {
        log.info(
                "Listening port deadlines: request headers {}, request body {}, idle {}",
                timeouts.requestHeaderTimeout(),
                timeouts.requestTimeout(),
                timeouts.idleTimeout());
        return server -> server.idleTimeout(timeouts.idleTimeout())
                .requestTimeout(timeouts.requestTimeout())
                .doOnChannelInit((observer, channel, remote) -> {
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

    /**
     * Puts the header deadline around the HTTP/1.1 decoder, wherever it sits (from the first byte: a silent
     * connection is the idle timeout's to close). HTTP/2 connections have none: their streams share frames.
     *
     * @return true when an HTTP/1.1 decoder was found (the deadline is attached, or already was)
     */
    private static boolean attach(Channel channel, ServerTimeoutsProperties timeouts) {
        return RequestHeaderDeadline.attachFromFirstByte(channel, timeouts.requestHeaderTimeout(), () -> {});
    }
}
