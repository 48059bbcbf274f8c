package dev.egress.border.tunnel;

import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import reactor.netty.http.server.HttpServerRequest;

/**
 * Lifts {@code egress.server.request-timeout} off a tunnel's stream. That deadline bounds how long a request
 * body may take to arrive, which protects every other endpoint from a client that trickles its body; a tunnel's
 * request body is the sender's side of the tunnel and lasts as long as the tunnel, so Reactor Netty would
 * close every tunnel after 30 s. Reactor Netty stops the timer when a request's last content arrives, through a
 * package-private method with no public equivalent; this calls that method, on the stream's event loop, once the
 * tunnel is up (only a verified App reaches it: the door checked the token and the client certificate first).
 */
final class StreamTimeouts {

    private static final Logger log = LoggerFactory.getLogger(StreamTimeouts.class);
    private static final @Nullable Method STOP = find();

    private StreamTimeouts() {}

    /**
     * Stops the request-body deadline of an exchange.
     *
     * @param request the tunnel call
     */
    static void lift(ServerHttpRequest request) {
        Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(request);
        if (STOP == null || !(nativeRequest instanceof HttpServerRequest http)) {
            return;
        }
        http.withConnection(connection -> connection.channel().eventLoop().execute(() -> {
            try {
                STOP.invoke(nativeRequest);
            } catch (ReflectiveOperationException | RuntimeException e) {
                log.warn(
                        "Could not lift the request timeout of a tunnel; it closes after egress.server.request-timeout",
                        e);
            }
        }));
    }

    private static @Nullable Method find() {
        try {
            Method stop = Class.forName("reactor.netty.http.server.HttpServerOperations")
                    .getDeclaredMethod("stopReadTimeout");
            stop.setAccessible(true);
            return stop;
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("Reactor Netty has no stopReadTimeout(): tunnels close after egress.server.request-timeout", e);
            return null;
        }
    }
}
