package dev.egress.app.config;

import dev.egress.discovery.web.auth.BearerAnswers;
import dev.egress.discovery.web.auth.BearerFilterSupport;
import dev.egress.discovery.web.auth.BearerTokens;
import dev.egress.discovery.web.auth.CanonicalPath;
import dev.egress.discovery.web.auth.TokenDigest;
import dev.egress.discovery.web.auth.TokenSource;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Bearer authentication of the App's doors. The presented token is hashed once ({@link TokenDigest}) and
 * compared in constant time with every accepted digest by {@link BearerTokens}; the matched token is exposed
 * to handlers only as its digest ({@link #TOKEN_SCOPE_ATTRIBUTE}), never as the secret itself, so a scope
 * does not move when another token is removed from a list.
 * <ul>
 *   <li>open: the probes, {@code /actuator/prometheus}, the OpenAPI document and Swagger UI's assets, and
 *       GET/HEAD of the operator page's assets under {@code /ops/} (outside {@code /ops/v1});</li>
 *   <li>operator token: {@code /ops/v1/**} (the fleet API) and any other method under {@code /ops/};</li>
 *   <li>API tokens: everything else. A tenant-bound token ({@code tenant-api-tokens.<tenantId>}) is let
 *       through only to {@code POST /v1/deliveries}, {@code GET /v1/tenants/{id}/egress} and durable
 *       delivery's {@code /v1/deliveries} family, where the handler checks the tenant ({@link TenantAccess}); elsewhere it answers 403 {@code tenant-forbidden}.</li>
 * </ul>
 *
 * <p>Authorisation follows the route WebFlux will match, not a raw prefix: routing reads decoded
 * segments with {@code ;} parameters stripped, so a raw-prefix check can be walked around
 * ({@code /ops;x/v1/...}, {@code /%6Fps/v1/...}). A path with more than one spelling is refused with 400
 * before routing, whatever the token ({@link CanonicalPath}); doors are chosen on the decoded segments,
 * case-insensitively, so a case variant meets the stricter door and then finds no (case-sensitive)
 * route. This holds for every handler mapping (controllers, actuator, static resources) without
 * resolving a handler twice. Open paths are compared exactly. Refusals are written by
 * {@link BearerAnswers}, shared with Border.
 */
public final class ApiTokenFilter extends BearerFilterSupport {

    /** Exchange attribute holding the caller's token scope ({@code sha256:<hex>} of the token), for idempotency keys. */
    public static final String TOKEN_SCOPE_ATTRIBUTE = "egress.tokenScope";
    /** Exchange attribute holding the tenant a tenant-bound token may act for; absent for other tokens. */
    public static final String BOUND_TENANT_ATTRIBUTE = "egress.boundTenant";

    private enum Door {
        OPEN,
        OPERATOR,
        API
    }

    /**
     * Open beside the probes: the API description is the public contract of an open-source project, and
     * Swagger UI must load it before anyone can sign in there; it holds no tenant or fleet data.
     */
    private static final Set<String> OPEN_PATHS = Set.of("/v3/api-docs", "/swagger-ui.html");
    /** Swagger UI's own assets (served only where springdoc.swagger-ui.enabled=true). */
    private static final Set<String> OPEN_FOR_READING = Set.of("swagger-ui", "webjars");

    private static final Pattern TENANT_EGRESS = Pattern.compile("/v1/tenants/[^/]+/egress");
    private static final Pattern DELIVERY = Pattern.compile("/v1/deliveries/[^/]+");
    private static final Pattern DELIVERY_RETRY = Pattern.compile("/v1/deliveries/[^/]+/retry");
    private static final Pattern TENANT_DELIVERIES_RETRY = Pattern.compile("/v1/tenants/[^/]+/deliveries/retry");
    private final TokenSource apiTokens;
    private final TokenSource operatorTokens;
    private final List<Map.Entry<String, TokenSource>> tenantTokens;

    /**
     * Creates the filter.
     *
     * @param security the configured tokens
     */
    public ApiTokenFilter(SecurityProperties security) {
        super(new BearerAnswers("a valid bearer token is required", TargetContact.UNSTATED));
        this.apiTokens = security.apiTokenSource();
        this.operatorTokens = security.operatorTokenSource();
        this.tenantTokens = List.copyOf(security.tenantTokenSources().entrySet());
    }

    /**
     * Registers the revocation gauge of every token file this filter reads.
     *
     * @param meters the registry
     */
    void register(MeterRegistry meters) {
        apiTokens.register(meters);
        operatorTokens.register(meters);
        tenantTokens.forEach(tenant -> tenant.getValue().register(meters));
    }

    @Override
    protected Mono<Void> authorise(
            ServerWebExchange exchange, WebFilterChain chain, String path, List<String> segments) {
        // Hashed once, whichever door and however many lists it is compared with.
        TokenDigest presented =
                TokenDigest.ofAuthorization(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
        return switch (doorOf(exchange.getRequest().getMethod(), path, segments)) {
            case OPEN -> chain.filter(exchange);
            case OPERATOR ->
                operatorTokens.current().matches(presented)
                        ? chain.filter(exchange)
                        : answers().unauthorized(exchange.getResponse());
            case API -> api(exchange, chain, path, presented);
        };
    }

    private Mono<Void> api(ServerWebExchange exchange, WebFilterChain chain, String path, TokenDigest presented) {
        if (presented == null) {
            return answers().unauthorized(exchange.getResponse());
        }
        Optional<ApiScope> scope = scopeOf(presented);
        if (scope.isEmpty()) {
            return answers().unauthorized(exchange.getResponse());
        }
        exchange.getAttributes().put(TOKEN_SCOPE_ATTRIBUTE, "sha256:" + presented.hex());
        String tenant = scope.get().boundTenant();
        if (tenant == null) {
            return chain.filter(exchange);
        }
        if (!tenantScoped(exchange.getRequest().getMethod(), path)) {
            return answers()
                    .refuse(
                            exchange.getResponse(),
                            Problem.of(
                                    ProblemType.TENANT_FORBIDDEN,
                                    "this token may act only for tenant '%s', on its deliveries and its egress view"
                                            .formatted(tenant)));
        }
        exchange.getAttributes().put(BOUND_TENANT_ATTRIBUTE, tenant);
        return chain.filter(exchange);
    }

    /**
     * What an API token may do, as {@link #scopeOf} found it.
     *
     * @param boundTenant the one tenant a tenant-bound token may act for, or null for a token of every tenant
     */
    public record ApiScope(@Nullable String boundTenant) {

        /**
         * Whether the token may act for a tenant.
         *
         * @param tenantId the tenant
         * @return true for a token of every tenant or one bound to this tenant
         */
        public boolean mayActFor(String tenantId) {
            return boundTenant == null || boundTenant.equals(tenantId);
        }
    }

    /**
     * Checks an API token against every accepted list, the one rule for every door that takes API tokens (this
     * filter, and the forward proxy's {@code Proxy-Authorization}). Tenant-bound tokens first: a token listed for
     * every tenant and for one gets the narrower scope. Every list is compared (no early exit), and a token two
     * tenants' files both list is refused: fail closed.
     *
     * @param presented the presented token's digest, or null when none was presented
     * @return the token's scope, or empty when it is refused
     */
    public Optional<ApiScope> scopeOf(@Nullable TokenDigest presented) {
        if (presented == null) {
            return Optional.empty();
        }
        List<String> bound = new ArrayList<>(1);
        for (Map.Entry<String, TokenSource> tenant : tenantTokens) {
            if (tenant.getValue().current().matches(presented)) {
                bound.add(tenant.getKey());
            }
        }
        boolean global = apiTokens.current().matches(presented);
        if (bound.size() > 1 || bound.isEmpty() && !global) {
            return Optional.empty();
        }
        return Optional.of(new ApiScope(bound.isEmpty() ? null : bound.get(0)));
    }

    private static Door doorOf(HttpMethod method, String path, List<String> segments) {
        if (OPEN_PATHS.contains(path)) {
            return Door.OPEN;
        }
        boolean read = HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
        if (read
                && !segments.isEmpty()
                && OPEN_FOR_READING.contains(segments.get(0))
                && (segments.get(0).equals("swagger-ui")
                        || segments.size() > 1 && segments.get(1).equals("swagger-ui"))) {
            return Door.OPEN;
        }
        if (!segments.isEmpty() && segments.get(0).equalsIgnoreCase("ops")) {
            boolean api = segments.size() > 1 && segments.get(1).equalsIgnoreCase("v1");
            return !api && read ? Door.OPEN : Door.OPERATOR;
        }
        return Door.API;
    }

    /**
     * The endpoints a tenant-bound token may reach, spelled exactly (the path is canonical here); the
     * handler then checks the tenant.
     */
    private static boolean tenantScoped(HttpMethod method, String path) {
        if (HttpMethod.POST.equals(method)) {
            return path.equals("/v1/deliveries")
                    || DELIVERY_RETRY.matcher(path).matches()
                    || TENANT_DELIVERIES_RETRY.matcher(path).matches();
        }
        return HttpMethod.GET.equals(method)
                && (TENANT_EGRESS.matcher(path).matches()
                        || path.equals("/v1/deliveries")
                        || DELIVERY.matcher(path).matches());
    }
}
