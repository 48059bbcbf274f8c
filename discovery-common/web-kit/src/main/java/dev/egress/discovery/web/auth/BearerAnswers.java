package dev.egress.discovery.web.auth;

import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemResponses;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Mono;

/**
 * What App's and Border's bearer-token filters share: the paths open on both, the path segments as the
 * router reads them, and the problems a filter answers before any controller runs (400 for a path with
 * more than one spelling, 401 with {@code WWW-Authenticate: Bearer}, and the service's own refusals).
 * Each filter keeps only its doors and tokens.
 */
public final class BearerAnswers {

    /** Open on both services, compared exactly (no variant of a probe path is open): the probes and the scrape. */
    public static final Set<String> PROBE_PATHS =
            Set.of("/actuator/health/liveness", "/actuator/health/readiness", "/actuator/prometheus");

    private final TargetContact contact;
    private final Problem unauthorized;
    private final byte[] unauthorizedBody;

    /**
     * Creates the answers of one service.
     *
     * @param unauthorizedDetail the 401's detail (a fixed sentence, never request data)
     * @param contact            what this service's problems state about the target
     */
    public BearerAnswers(String unauthorizedDetail, TargetContact contact) {
        this.contact = contact;
        this.unauthorized =
                Problem.of(ProblemType.UNAUTHORIZED, unauthorizedDetail).withTargetContact(contact);
        this.unauthorizedBody = ProblemResponses.json(unauthorized);
    }

    /**
     * 401 with {@code WWW-Authenticate: Bearer}; the body is rendered once.
     *
     * @param response the response
     * @return completes when written
     */
    public Mono<Void> unauthorized(ServerHttpResponse response) {
        response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        return ProblemResponses.write(response, unauthorized, unauthorizedBody);
    }

    /**
     * 400 {@code invalid-request} for a path with more than one spelling ({@link CanonicalPath}).
     *
     * @param response the response
     * @param why      {@link CanonicalPath#problem}'s reason
     * @return completes when written
     */
    public Mono<Void> nonCanonical(ServerHttpResponse response, String why) {
        return refuse(response, Problem.of(ProblemType.INVALID_REQUEST, "non-canonical request path: " + why));
    }

    /**
     * Any other refusal of a filter.
     *
     * @param response the response
     * @param problem  the problem; this service's statement about the target is added when it has none
     * @return completes when written
     */
    public Mono<Void> refuse(ServerHttpResponse response, Problem problem) {
        Problem answer =
                problem.targetContact() == TargetContact.UNSTATED ? problem.withTargetContact(contact) : problem;
        return ProblemResponses.write(response, answer);
    }

    /**
     * The segments as the router matches them: decoded, without {@code ;} parameters.
     *
     * @param path the path within the application
     * @return the segments, in order
     */
    public static List<String> segments(PathContainer path) {
        List<String> segments = new ArrayList<>(4);
        for (PathContainer.Element element : path.elements()) {
            if (element instanceof PathContainer.PathSegment segment) {
                segments.add(segment.valueToMatch());
            }
        }
        return segments;
    }
}
