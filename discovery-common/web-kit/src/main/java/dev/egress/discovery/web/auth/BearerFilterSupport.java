package dev.egress.discovery.web.auth;

import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.http.server.PathContainer;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The part of App's and Border's bearer-token filters that is the same: they run before everything
 * else, refuse a path with more than one spelling with 400 whatever the token ({@link CanonicalPath}),
 * and let the probes through ({@link BearerAnswers#PROBE_PATHS}). A service's filter then chooses the
 * door on the segments as the router reads them, and answers through {@link #answers()}.
 */
public abstract class BearerFilterSupport implements WebFilter, Ordered {

    private final BearerAnswers answers;

    /**
     * Creates the filter.
     *
     * @param answers the service's refusals
     */
    protected BearerFilterSupport(BearerAnswers answers) {
        this.answers = answers;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public final Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        PathContainer path = exchange.getRequest().getPath().pathWithinApplication();
        String refused = CanonicalPath.problem(path.value());
        if (refused != null) {
            return answers.nonCanonical(exchange.getResponse(), refused);
        }
        if (BearerAnswers.PROBE_PATHS.contains(path.value())) {
            return chain.filter(exchange);
        }
        return authorise(exchange, chain, path.value(), BearerAnswers.segments(path));
    }

    /**
     * Lets a canonical, non-probe request through its door, or refuses it.
     *
     * @param exchange the request
     * @param chain    the rest of the chain
     * @param path     the path within the application, canonical
     * @param segments its segments as the router reads them
     * @return the chain's result, or the refusal
     */
    protected abstract Mono<Void> authorise(
            ServerWebExchange exchange, WebFilterChain chain, String path, List<String> segments);

    /**
     * The service's refusals.
     *
     * @return the answers
     */
    protected BearerAnswers answers() {
        return answers;
    }
}
