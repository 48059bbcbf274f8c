package dev.egress.app.proxy;

import dev.egress.discovery.web.forward.TunnelCall;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpRequestDecoder;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The forward-proxy listener on {@code egress.proxy.address}:{@code port}, a Netty server of its own beside the
 * WebFlux one (which serves the API and the probes; App's readiness does not include this port). It starts with the
 * application context and, on shutdown, stops accepting first and then closes the open tunnels.
 */
final class ProxyServer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ProxyServer.class);
    private static final int MAX_HEAD_LINE = 8192;
    private static final int MAX_HEADERS = 16 * 1024;

    private final ProxyContext context;
    private final @Nullable ProxyTls tls;
    private @Nullable EventLoopGroup boss;
    private @Nullable EventLoopGroup workers;
    private @Nullable Channel server;

    ProxyServer(ProxyContext context, @Nullable ProxyTls tls) {
        this.context = context;
        this.tls = tls;
    }

    @Override
    public synchronized void start() {
        // NIO: App carries no native transport; a tunnel costs the same few syscalls either way.
        boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(0, NioIoHandler.newFactory());
        ProxyProperties properties = context.properties();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        ProxyTls material = tls;
                        if (material != null) {
                            // The current material: a rotated certificate serves every connection from here on.
                            channel.pipeline()
                                    .addLast("proxy.tls", material.get().newHandler(channel.alloc()));
                        }
                        channel.pipeline()
                                .addLast(ProxyHead.DECODER, new HttpRequestDecoder(MAX_HEAD_LINE, MAX_HEADERS, 8192))
                                .addLast(ProxyHead.NAME, new ProxyHead(context));
                    }
                });
        InetSocketAddress address = new InetSocketAddress(properties.address(), properties.port());
        server = bootstrap.bind(address).syncUninterruptibly().channel();
        log.info(
                "Forward proxy listening on {}{} (connect timeout {}, idle {}, lifetime {}, ports {})",
                tls != null ? "https://" : "http://",
                server.localAddress(),
                properties.connectTimeout(),
                properties.idleTimeout(),
                properties.maxLifetime(),
                TunnelCall.DEFAULT_PORTS
                        + (properties.allowedPorts().isEmpty() ? "" : " + " + properties.allowedPorts()));
    }

    /**
     * The bound port (differs from {@code egress.proxy.port} when that is 0).
     *
     * @return the port, or -1 when not listening
     */
    int port() {
        Channel channel = server;
        return channel == null ? -1 : ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public synchronized void stop() {
        if (server != null) {
            server.close().syncUninterruptibly();
            server = null;
        }
        if (boss != null) {
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS);
            boss = null;
            workers = null;
        }
        if (tls != null) {
            tls.close();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return server != null;
    }
}
