package dev.egress.border;

import dev.egress.border.config.SecurityProperties;
import dev.egress.discovery.auth.BearerTokens;
import dev.egress.discovery.forward.Problems;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Set;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Bearer authentication for every endpoint except the probes and Prometheus: {@code /internal/**}
 * takes the internal token (App), everything else the operator token. Tokens are compared in constant
 * time by {@link BearerTokens}.
 */
@Component
class BearerTokenFilter implements WebFilter, Ordered {

    private static final Set<String> OPEN = Set.of("/actuator/health/liveness", "/actuator/health/readiness",
            "/actuator/prometheus");
    private final BearerTokens internalTokens;
    private final BearerTokens operatorTokens;
    private final boolean insecureLocal;
    private final byte[] unauthorizedBody = ("{\"type\":\"" + Problems.type(Problems.UNAUTHORIZED)
            + "\",\"title\":\"Unauthorized\",\"status\":401,\"detail\":\"missing or wrong bearer token\",\""
            + Problems.TARGET_CONTACTED + "\":false}").getBytes(StandardCharsets.UTF_8);

    BearerTokenFilter(SecurityProperties security) {
        this.internalTokens = BearerTokens.of(Collections.singletonList(security.internalToken()));
        this.operatorTokens = BearerTokens.of(Collections.singletonList(security.operatorToken()));
        this.insecureLocal = security.insecureLocal();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String path = exchange.getRequest().getPath().pathWithinApplication().value();
        if (OPEN.contains(path)) {
            return chain.filter(exchange);
        }
        BearerTokens expected = path.startsWith("/internal/") || path.equals("/internal") ? internalTokens : operatorTokens;
        if (expected.isEmpty() && insecureLocal) {
            return chain.filter(exchange);
        }
        if (expected.matches(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION))) {
            return chain.filter(exchange);
        }
        var response = exchange.getResponse();
        response.setStatusCode(HttpStatus.UNAUTHORIZED);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        DataBuffer buffer = response.bufferFactory().wrap(unauthorizedBody);
        return response.writeWith(Mono.just(buffer));
    }
}
