package dev.egress.border;

import dev.egress.border.config.SecurityProperties;
import dev.egress.discovery.forward.Problems;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
 * takes the internal token (App), everything else the operator token. Tokens are compared as SHA-256
 * digests with {@link MessageDigest#isEqual}, which takes the same time for any two inputs.
 */
@Component
class BearerTokenFilter implements WebFilter, Ordered {

    private static final Set<String> OPEN = Set.of("/actuator/health/liveness", "/actuator/health/readiness",
            "/actuator/prometheus");
    private static final String PREFIX = "Bearer ";

    private final byte[] internalDigest;
    private final byte[] operatorDigest;
    private final boolean insecureLocal;
    private final byte[] unauthorizedBody = ("{\"type\":\"" + Problems.type(Problems.UNAUTHORIZED)
            + "\",\"title\":\"Unauthorized\",\"status\":401,\"detail\":\"missing or wrong bearer token\",\""
            + Problems.TARGET_CONTACTED + "\":false}").getBytes(StandardCharsets.UTF_8);

    BearerTokenFilter(SecurityProperties security) {
        this.internalDigest = security.internalToken() == null ? null : sha256(security.internalToken());
        this.operatorDigest = security.operatorToken() == null ? null : sha256(security.operatorToken());
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
        byte[] expected = path.startsWith("/internal/") || path.equals("/internal") ? internalDigest : operatorDigest;
        if (expected == null && insecureLocal) {
            return chain.filter(exchange);
        }
        String header = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (expected != null && header != null && header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())
                && MessageDigest.isEqual(expected, sha256(header.substring(PREFIX.length()).strip()))) {
            return chain.filter(exchange);
        }
        var response = exchange.getResponse();
        response.setStatusCode(HttpStatus.UNAUTHORIZED);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        DataBuffer buffer = response.bufferFactory().wrap(unauthorizedBody);
        return response.writeWith(Mono.just(buffer));
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is a required JDK algorithm", e);
        }
    }
}
