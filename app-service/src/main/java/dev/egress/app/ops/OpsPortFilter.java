package dev.egress.app.ops;

import java.net.InetSocketAddress;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * With {@code egress.ops.port} set, the operator page and API ({@code /ops}, {@code /ops/**}) answer on that
 * port only, and nothing else does: either way the other port answers 404, as for a path that does not
 * exist. Runs before authentication, so a token is never checked on the wrong port.
 */
final class OpsPortFilter implements WebFilter, Ordered {

    private final int opsPort;

    /**
     * A filter for one operator port.
     *
     * @param opsPort the operator port
     */
    OpsPortFilter(int opsPort) {
        this.opsPort = opsPort;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        InetSocketAddress local = exchange.getRequest().getLocalAddress();
        boolean onOpsPort = local != null && local.getPort() == opsPort;
        String path = exchange.getRequest().getPath().pathWithinApplication().value();
        boolean opsPath = path.equals("/ops") || path.startsWith("/ops/");
        if (onOpsPort != opsPath) {
            exchange.getResponse().setStatusCode(HttpStatus.NOT_FOUND);
            return exchange.getResponse().setComplete();
        }
        return chain.filter(exchange);
    }

    /** Before the page's headers and the token filters: a path on the wrong port does not exist. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
