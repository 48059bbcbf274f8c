package dev.egress.border.server;

import dev.egress.discovery.server.RequestHeaderDeadline;
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
        log.info("Listening port deadlines: request headers {}, request body {}, idle {}",
                timeouts.requestHeaderTimeout(), timeouts.requestTimeout(), timeouts.idleTimeout());
        return server -> server
                .idleTimeout(timeouts.idleTimeout())
                .requestTimeout(timeouts.requestTimeout())
                .doOnChannelInit((observer, channel, remote) ->
                        // From the first byte: a silent connection is the idle timeout's to close.
                        RequestHeaderDeadline.installFromFirstByte(channel, timeouts.requestHeaderTimeout(), () -> { }));
    }
}
