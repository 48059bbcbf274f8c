package dev.egress.discovery.web.problem;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders a {@link Problem} as RFC 9457 {@code application/problem+json}, the one rendering both
 * services use: from the controller advice ({@link #entity}) and from web filters that answer before
 * any controller ({@link #write}), so a 401 from a filter has the same members as a 400 from a handler.
 */
public final class ProblemResponses {

    /** Serialises problems written by filters the way WebFlux's encoder writes the advice's answers. */
    private static final JsonMapper JSON = JsonMapper.builder()
            .addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class)
            .build();

    private ProblemResponses() {}

    /**
     * The body: type, title (the status' reason phrase), status, detail, {@code targetContacted} when
     * stated, then the reason and the extra members.
     *
     * @param problem the problem
     * @return the body
     */
    public static ProblemDetail body(Problem problem) {
        ProblemDetail body = ProblemDetail.forStatus(problem.status());
        body.setType(problem.type().type());
        body.setTitle(problem.status().getReasonPhrase());
        if (problem.detail() != null) {
            body.setDetail(problem.detail());
        }
        Boolean contacted = problem.targetContact().member();
        if (contacted != null) {
            body.setProperty(Problem.TARGET_CONTACTED, contacted);
        }
        problem.properties().forEach(body::setProperty);
        return body;
    }

    /**
     * The answer of a controller advice.
     *
     * @param problem the problem
     * @return status, {@code Retry-After} when the problem has one, and the body
     */
    public static ResponseEntity<ProblemDetail> entity(Problem problem) {
        ResponseEntity.BodyBuilder response =
                ResponseEntity.status(problem.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (problem.retryAfter() != null) {
            response.header(HttpHeaders.RETRY_AFTER, retryAfter(problem));
        }
        return response.body(body(problem));
    }

    /**
     * The body as bytes, for answers prepared once (a filter's fixed 401).
     *
     * @param problem the problem
     * @return UTF-8 JSON
     */
    public static byte[] json(Problem problem) {
        return JSON.writeValueAsBytes(body(problem));
    }

    /**
     * Answers from a web filter, before any controller runs.
     *
     * @param response the response to write
     * @param problem  the problem
     * @return completes when written
     */
    public static Mono<Void> write(ServerHttpResponse response, Problem problem) {
        return write(response, problem, json(problem));
    }

    /**
     * Answers from a web filter with a body rendered beforehand by {@link #json}.
     *
     * @param response the response to write
     * @param problem  the problem the body was rendered from (status and headers)
     * @param body     its rendered body
     * @return completes when written
     */
    public static Mono<Void> write(ServerHttpResponse response, Problem problem, byte[] body) {
        response.setStatusCode(problem.status());
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (problem.retryAfter() != null) {
            response.getHeaders().set(HttpHeaders.RETRY_AFTER, retryAfter(problem));
        }
        return response.writeWith(
                Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
    }

    private static String retryAfter(Problem problem) {
        return Long.toString(Math.max(1, problem.retryAfter().toSeconds()));
    }
}
