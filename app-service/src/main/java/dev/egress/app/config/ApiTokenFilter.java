package dev.egress.app.config;

import dev.egress.app.ProblemAdvice;
import dev.egress.discovery.auth.BearerTokens;
import dev.egress.discovery.forward.Problems;
import java.util.List;
import java.util.Set;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bearer authentication for everything except the probes, the Prometheus scrape and the operator
 * page's static assets. The operator API ({@code /ops/v1/**}) takes the operator token only; every
 * other endpoint takes an API token. Tokens are compared in constant time by {@link BearerTokens}. The matched token is exposed to handlers only as an opaque scope
 * ({@link #TOKEN_SCOPE_ATTRIBUTE}), never as the secret itself.
 */
public final class ApiTokenFilter implements WebFilter, Ordered {

    /** Exchange attribute holding the caller's token scope (e.g. {@code token-0}), for idempotency keys. */
    public static final String TOKEN_SCOPE_ATTRIBUTE = "egress.tokenScope";

    private static final Set<String> OPEN_PATHS = Set.of(
            "/actuator/health/liveness", "/actuator/health/readiness", "/actuator/prometheus");
    private static final String OPS_API = "/ops/v1/";
    private static final String OPS_PAGE = "/ops/";
    private final BearerTokens tokens;
    private final BearerTokens operatorTokens;
    private final byte[] unauthorizedBody;

    /**
     * Creates the filter.
     *
     * @param security the configured tokens
     * @param json     serialises the 401 problem once
     */
    public ApiTokenFilter(SecurityProperties security, JsonMapper json) {
        this.tokens = BearerTokens.of(security.apiTokens());
        this.operatorTokens = BearerTokens.of(security.operatorToken().isEmpty() ? List.of() : List.of(security.operatorToken()));
        ProblemDetail problem = ProblemAdvice.body(HttpStatus.UNAUTHORIZED, Problems.UNAUTHORIZED,
                "a valid bearer token is required");
        this.unauthorizedBody = json.writeValueAsBytes(problem);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String path = exchange.getRequest().getPath().pathWithinApplication().value();
        if (OPEN_PATHS.contains(path)) {
            return chain.filter(exchange);
        }
        String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (path.startsWith(OPS_API)) {
            return operatorTokens.matches(authorization) ? chain.filter(exchange) : unauthorized(exchange.getResponse());
        }
        if (path.equals("/ops") || path.startsWith(OPS_PAGE)) {
            // The page and its scripts hold no data: the browser signs in and sends the token to /ops/v1/**.
            return chain.filter(exchange);
        }
        int scope = tokens.match(authorization);
        if (scope < 0) {
            return unauthorized(exchange.getResponse());
        }
        exchange.getAttributes().put(TOKEN_SCOPE_ATTRIBUTE, "token-" + scope);
        return chain.filter(exchange);
    }

    private Mono<Void> unauthorized(ServerHttpResponse response) {
        response.setStatusCode(HttpStatus.UNAUTHORIZED);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(unauthorizedBody)));
    }
}
