package dev.egress.app.ops;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The operator page's security headers on every response under {@code /ops/} outside the API: the page at
 * {@code /ops/}, the same file at {@code /ops/index.html}, its scripts and styles, and whatever else the
 * static resource handler (or a 404) answers there. Set by path, not by the route that serves the page:
 * the resource handler serves {@code classpath:/static/ops/} under its own names too, and a copy of the
 * page without its CSP is as good as no CSP.
 */
final class OpsPageHeaders implements WebFilter, Ordered {

    /** The page loads only its own scripts and styles and talks only to this App; nobody may frame it. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (isPagePath(exchange.getRequest().getPath().pathWithinApplication().value())) {
            // Before commit, so that the headers win over whatever the handler set and reach error answers too.
            exchange.getResponse().beforeCommit(() -> {
                HttpHeaders headers = exchange.getResponse().getHeaders();
                headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
                headers.set("X-Content-Type-Options", "nosniff");
                headers.set("Referrer-Policy", "no-referrer");
                headers.set("X-Frame-Options", "DENY");
                headers.set(HttpHeaders.CACHE_CONTROL, "no-store");
                return Mono.empty();
            });
        }
        return chain.filter(exchange);
    }

    /** Runs first: a refusal by a later filter (a wrong method, a bad spelling) carries the headers too. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /**
     * Whether a path belongs to the page rather than to the operator API.
     *
     * @param path the request path
     * @return true for {@code /ops}, {@code /ops/} and anything under it but {@code /ops/v1}
     */
    static boolean isPagePath(String path) {
        if (!path.equals("/ops") && !path.startsWith("/ops/")) {
            return false;
        }
        return !path.equals("/ops/v1") && !path.startsWith("/ops/v1/");
    }
}
