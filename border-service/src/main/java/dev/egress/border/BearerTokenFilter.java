package dev.egress.border;

import dev.egress.discovery.auth.BearerTokens;
import dev.egress.discovery.auth.CanonicalPath;
import dev.egress.discovery.auth.TokenSource;
import dev.egress.discovery.forward.Problems;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Bearer authentication for every endpoint except the probes and Prometheus: {@code /internal/**}
 * takes the internal token (App), everything else the operator token. Tokens are compared in constant
 * time by {@link BearerTokens}.
 *
 * <p>Authorisation follows the route WebFlux will match, not a raw prefix. Routing reads the decoded
 * path segments with {@code ;} parameters stripped, so a raw-prefix check let the operator token through
 * {@code /internal;x/v1/egress} and {@code /%69nternal/v1/egress}. Two rules close that, chosen over
 * resolving the handler in the filter because they hold for every handler mapping (controllers,
 * actuator, static resources) without running any of them twice:
 * <ol>
 *   <li>a path with more than one spelling ({@code ;}, {@code //}, {@code /./}, {@code /../}, an escape
 *       of a letter or a delimiter; see {@link CanonicalPath}) is refused with 400 before any routing,
 *       whatever the token;</li>
 *   <li>the door is chosen on the decoded first segment, case-insensitively: a case variant is sent to
 *       the stricter door, and the router (case-sensitive) then finds no route for it.</li>
 * </ol>
 * Open paths are compared exactly, so no variant of a probe path is open.
 */
@Component
class BearerTokenFilter implements WebFilter, Ordered {

    private static final Set<String> OPEN = Set.of("/actuator/health/liveness", "/actuator/health/readiness",
            "/actuator/prometheus");
    private final TokenSource internalTokens;
    private final TokenSource operatorTokens;
    private final boolean insecureLocal;
    private final byte[] unauthorizedBody = problem(HttpStatus.UNAUTHORIZED, Problems.UNAUTHORIZED,
            "missing or wrong bearer token");

    BearerTokenFilter(SecurityProperties security) {
        this.internalTokens = security.internalTokens();
        this.operatorTokens = security.operatorTokens();
        this.insecureLocal = security.insecureLocal();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        PathContainer path = exchange.getRequest().getPath().pathWithinApplication();
        String refused = CanonicalPath.problem(path.value());
        if (refused != null) {
            return write(exchange.getResponse(), HttpStatus.BAD_REQUEST,
                    problem(HttpStatus.BAD_REQUEST, Problems.INVALID_REQUEST, "non-canonical request path: " + refused));
        }
        if (OPEN.contains(path.value())) {
            return chain.filter(exchange);
        }
        BearerTokens expected = "internal".equalsIgnoreCase(firstSegment(path)) ? internalTokens.current()
                : operatorTokens.current();
        if (expected.isEmpty() && insecureLocal) {
            return chain.filter(exchange);
        }
        if (expected.matches(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION))) {
            return chain.filter(exchange);
        }
        ServerHttpResponse response = exchange.getResponse();
        response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        return write(response, HttpStatus.UNAUTHORIZED, unauthorizedBody);
    }

    /** The first segment as the router matches it: decoded, without parameters. */
    private static String firstSegment(PathContainer path) {
        for (PathContainer.Element element : path.elements()) {
            if (element instanceof PathContainer.PathSegment segment) {
                return segment.valueToMatch();
            }
        }
        return "";
    }

    private static Mono<Void> write(ServerHttpResponse response, HttpStatus status, byte[] body) {
        response.setStatusCode(status);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
    }

    private static byte[] problem(HttpStatus status, String slug, String detail) {
        // The detail is one of our own fixed strings (no request data), so plain concatenation is safe JSON.
        return ("{\"type\":\"" + Problems.type(slug) + "\",\"title\":\"" + status.getReasonPhrase() + "\",\"status\":"
                + status.value() + ",\"detail\":\"" + detail.replace("\\", "\\\\").replace("\"", "\\\"") + "\",\""
                + Problems.TARGET_CONTACTED + "\":false}").getBytes(StandardCharsets.UTF_8);
    }
}
