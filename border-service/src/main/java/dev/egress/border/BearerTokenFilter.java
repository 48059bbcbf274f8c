package dev.egress.border;

import dev.egress.discovery.web.auth.BearerAnswers;
import dev.egress.discovery.web.auth.BearerFilterSupport;
import dev.egress.discovery.web.auth.BearerTokens;
import dev.egress.discovery.web.auth.CanonicalPath;
import dev.egress.discovery.web.auth.TokenSource;
import dev.egress.discovery.web.problem.TargetContact;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Bearer authentication for every endpoint except the probes and Prometheus: {@code /internal/**}
 * takes the internal tokens (the list App's presented token must be in), everything else the operator
 * token. Tokens are compared in constant time by {@link BearerTokens}; token files are re-read when they
 * change, and an emptied one refuses everything (see {@link TokenSource}).
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
 * Open paths ({@link BearerAnswers#PROBE_PATHS}) are compared exactly, so no variant of a probe path is
 * open. Refusals are written by {@link BearerAnswers}, shared with App; Border's state
 * {@code targetContacted: false}.
 */
@Component
class BearerTokenFilter extends BearerFilterSupport {

    private final TokenSource internalTokens;
    private final TokenSource operatorTokens;
    /** insecure-local with no internal token configured at all: no authentication on {@code /internal}. */
    private final boolean internalOpen;
    /** insecure-local with no operator token configured at all. */
    private final boolean operatorOpen;

    BearerTokenFilter(SecurityProperties security, ObjectProvider<MeterRegistry> meters) {
        super(new BearerAnswers("missing or wrong bearer token", TargetContact.NONE));
        this.internalTokens = security.internalTokens();
        this.operatorTokens = security.operatorTokens();
        // Open only when nothing is configured: an emptied (revoked) token file must never open a door.
        this.internalOpen =
                security.insecureLocal() && security.internalToken() == null && security.internalTokenFile() == null;
        this.operatorOpen =
                security.insecureLocal() && security.operatorToken() == null && security.operatorTokenFile() == null;
        meters.ifAvailable(registry -> {
            internalTokens.register(registry);
            operatorTokens.register(registry);
        });
    }

    @Override
    protected Mono<Void> authorise(
            ServerWebExchange exchange, WebFilterChain chain, String path, List<String> segments) {
        boolean internal = !segments.isEmpty() && "internal".equalsIgnoreCase(segments.get(0));
        if (internal ? internalOpen : operatorOpen) {
            return chain.filter(exchange);
        }
        BearerTokens expected = internal ? internalTokens.current() : operatorTokens.current();
        if (expected.matches(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION))) {
            return chain.filter(exchange);
        }
        return answers().unauthorized(exchange.getResponse());
    }
}
