package dev.egress.app.ops;

import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.server.reactive.HttpHandler;

/**
 * The operator API's own listener ({@code egress.ops.port}): the application's one {@link HttpHandler} served
 * on a second port, with the API port's TLS ({@code server.ssl}, reloaded like it) and the same Netty
 * customisers (request deadlines). {@link OpsPortFilter} then keeps {@code /ops/**} on this port and
 * everything else off it, so a network rule can tell the two apart.
 */
final class OpsListener implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OpsListener.class);

    private final NettyReactiveWebServerFactory factory;
    private final Supplier<HttpHandler> handler;
    private WebServer server;

    /**
     * A listener, not started.
     *
     * @param port        the operator port
     * @param ssl         the API port's TLS settings ({@code server.ssl}); null or disabled: plain http
     * @param bundles     the SSL bundles the settings may name
     * @param customizers the server customisers the API port has
     * @param handler     the application's handler, resolved at start (it is built from every bean's filters)
     */
    OpsListener(
            int port,
            Ssl ssl,
            SslBundles bundles,
            List<NettyServerCustomizer> customizers,
            Supplier<HttpHandler> handler) {
        this.factory = new NettyReactiveWebServerFactory(port);
        if (ssl != null) {
            factory.setSsl(ssl);
        }
        factory.setSslBundles(bundles);
        factory.setServerCustomizers(customizers);
        this.handler = handler;
    }

    @Override
    public synchronized void start() {
        server = factory.getWebServer(handler.get());
        server.start();
        log.info("Operator API /ops/** on its own port {}; the API port answers 404 there", server.getPort());
    }

    @Override
    public synchronized void stop() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return server != null;
    }

    /**
     * The port it listens on.
     *
     * @return the bound port, or -1 before start
     */
    synchronized int port() {
        return server == null ? -1 : server.getPort();
    }
}
