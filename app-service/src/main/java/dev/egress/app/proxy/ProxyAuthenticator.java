package dev.egress.app.proxy;

import dev.egress.app.config.ApiTokenFilter;
import dev.egress.discovery.web.auth.TokenDigest;
import dev.egress.discovery.web.forward.TunnelCall;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Who is sending: the {@code Proxy-Authorization} credentials checked by the API's own rule
 * ({@link ApiTokenFilter#scopeOf}: the same token lists, hashed once, a tenant-bound token held to its tenant).
 * The user names the tenant; an empty user means "the tenant that claims the destination" (a tenant-bound
 * token: its own tenant), and an unclaimed destination goes through the shared pool. A sender inside
 * {@code egress.proxy.unauthenticated-sources} that sends no {@code Proxy-Authorization} at all is taken as an empty
 * user with a token bound to no tenant (for senders that cannot send credentials, such as self-hosted Svix).
 */
final class ProxyAuthenticator {

    /**
     * The tenant a request sends for.
     *
     * @param tenantId       the tenant, or null for the shared pool
     * @param credentialless whether it came through the credential-less door
     */
    record Sender(@Nullable String tenantId, boolean credentialless) {

        Sender(@Nullable String tenantId) {
            this(tenantId, false);
        }
    }

    /** A refusal: 407 for missing or wrong credentials, 403 for a token of another tenant. */
    static final class Refused extends Exception {
        private final Problem problem;

        Refused(Problem problem) {
            super(problem.detail(), null, false, false);
            this.problem = problem;
        }

        Problem problem() {
            return problem;
        }
    }

    private final ApiTokenFilter tokens;
    private final DestinationClaims claims;
    private final List<SourceRange> unauthenticated;

    /**
     * An authenticator.
     *
     * @param tokens          the API's token check
     * @param claims          which tenant claims a destination
     * @param unauthenticated {@code egress.proxy.unauthenticated-sources}: senders that may send no credentials
     */
    ProxyAuthenticator(ApiTokenFilter tokens, DestinationClaims claims, List<SourceRange> unauthenticated) {
        this.tokens = tokens;
        this.claims = claims;
        this.unauthenticated = List.copyOf(unauthenticated);
    }

    /**
     * Authenticates a request.
     *
     * @param header its {@code Proxy-Authorization}, or null
     * @param target where it goes
     * @param peer   the sender's address
     * @return the tenant it sends for
     * @throws Refused when it may not send
     */
    Sender authenticate(@Nullable String header, TunnelCall target, InetAddress peer) throws Refused {
        if (header == null && unauthenticated.stream().anyMatch(range -> range.contains(peer))) {
            // The credential-less door: an empty user with a token bound to no tenant. Credentials that are sent
            // are checked as always, so a wrong token from inside the range is still a 407.
            return new Sender(claims.claimant(target.host(), target.port()).orElse(null), true);
        }
        Optional<ProxyCredentials> credentials = ProxyCredentials.parse(header);
        if (credentials.isEmpty()) {
            throw new Refused(ProxyAnswers.authenticationRequired(
                    "Proxy-Authorization: Basic credentials are required (user: the tenant, password: an API token)"));
        }
        Optional<ApiTokenFilter.ApiScope> scope =
                tokens.scopeOf(TokenDigest.of(credentials.get().token()));
        if (scope.isEmpty()) {
            throw new Refused(ProxyAnswers.authenticationRequired("the token is not a valid API token"));
        }
        String user = credentials.get().user();
        String bound = scope.get().boundTenant();
        if (user.isEmpty()) {
            if (bound != null) {
                return new Sender(bound);
            }
            return new Sender(claims.claimant(target.host(), target.port()).orElse(null));
        }
        if (!scope.get().mayActFor(user)) {
            throw new Refused(Problem.of(
                    ProblemType.TENANT_FORBIDDEN, "this token may act only for tenant '%s'".formatted(bound)));
        }
        return new Sender(user);
    }
}
