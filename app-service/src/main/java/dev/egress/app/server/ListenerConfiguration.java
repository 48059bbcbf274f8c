package dev.egress.app.server;

import dev.egress.discovery.web.server.RequestHeaderDeadline;
import dev.egress.discovery.web.server.ServerDeadlines;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Hooks;

/** Applies {@link ServerDeadlines} ({@code egress.server.*}) to the Reactor Netty server that serves App's port. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ServerDeadlines.class)
class ListenerConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ListenerConfiguration.class);

    static {
        // Reactor Netty signals a request timeout to the body reader twice (the timeout, then the close);
        // the second arrives after the first ended the request and Reactor logs it at ERROR with a stack
        // trace by default — one per slow client, a log flood. Connection failures are not bugs: DEBUG.
        Hooks.onErrorDropped(error -> {
            if (error instanceof ChannelException) {
                log.debug("Dropped a connection error after the request ended: {}", error.toString());
            } else {
                log.error("Operator called default onErrorDropped", error);
            }
        });
    }

    @Bean
    NettyServerCustomizer listenerDeadlines(ServerDeadlines deadlines, MeterRegistry meters) {
        Counter headerTimeouts = Counter.builder("egress.server.request.header.timeouts")
                .description(
                        "Connections closed because a request's headers did not arrive within egress.server.request-header-timeout")
                .register(meters);
        return server -> deadlines
                .applyTo(server)
                .doOnChannelInit((observer, channel, remote) -> RequestHeaderDeadline.installFromOpening(
                        channel, deadlines.requestHeaderTimeout(), headerTimeouts::increment));
    }
}
