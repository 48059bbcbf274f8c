package dev.egress.border.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.netty.NettyPipeline;

/** Puts {@link ServerTimeoutsProperties} on the Border's listening port (Reactor Netty server). */
@Configuration(proxyBeanMethods = false)
class ServerTimeoutsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ServerTimeoutsConfiguration.class);

    @Bean
    NettyServerCustomizer slowClientDeadlines(ServerTimeoutsProperties timeouts) {
        log.info("Listening port deadlines: request headers {}, request body {}, idle {}",
                timeouts.requestHeaderTimeout(), timeouts.requestTimeout(), timeouts.idleTimeout());
        return server -> server
                .idleTimeout(timeouts.idleTimeout())
                .requestTimeout(timeouts.requestTimeout())
                .doOnChannelInit((observer, channel, remote) -> {
                    if (channel.pipeline().get(NettyPipeline.HttpCodec) == null) {
                        // Not plain HTTP/1.1 (e.g. a protocol negotiated later): nothing to attach to yet.
                        return;
                    }
                    HeaderDeadline deadline = new HeaderDeadline(timeouts.requestHeaderTimeout());
                    channel.pipeline().addBefore(NettyPipeline.HttpCodec, "egress.headerDeadline.raw", deadline.raw());
                    channel.pipeline().addAfter(NettyPipeline.HttpCodec, "egress.headerDeadline.decoded", deadline.decoded());
                });
    }
}
