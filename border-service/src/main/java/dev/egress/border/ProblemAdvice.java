package dev.egress.border;

import dev.egress.discovery.forward.Problems;
import java.net.URI;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import reactor.core.publisher.Mono;
import reactor.netty.channel.AbortedException;

/**
 * The one place where failures become RFC 9457 problem details. Every Border problem carries
 * {@code targetContacted} so that App can tell a safe retry from a possible duplicate.
 */
@RestControllerAdvice
class ProblemAdvice {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    @ExceptionHandler(BorderException.class)
    ResponseEntity<ProblemDetail> border(BorderException e) {
        return problem(e.status(), e.slug(), e.getMessage(), e.targetContacted(), e.properties());
    }

    @ExceptionHandler(DataBufferLimitException.class)
    ResponseEntity<ProblemDetail> tooLarge(DataBufferLimitException e) {
        return problem(HttpStatus.CONTENT_TOO_LARGE, Problems.PAYLOAD_TOO_LARGE,
                "request is larger than the configured cap", false, Map.of());
    }

    @ExceptionHandler(ServerWebInputException.class)
    ResponseEntity<ProblemDetail> badInput(ServerWebInputException e) {
        if (findCause(e, DataBufferLimitException.class)) {
            return tooLarge(null);
        }
        return problem(HttpStatus.BAD_REQUEST, Problems.INVALID_REQUEST,
                "request body is not a valid JSON document of the expected shape", false, Map.of());
    }

    @ExceptionHandler(ResponseStatusException.class)
    ResponseEntity<ProblemDetail> status(ResponseStatusException e) {
        HttpStatus status = HttpStatus.resolve(e.getStatusCode().value());
        if (status == null || status.is5xxServerError()) {
            return unexpected(e);
        }
        if (status == HttpStatus.CONTENT_TOO_LARGE) {
            return tooLarge(null);
        }
        // Routing and protocol errors (404 no such endpoint, 405, 406, 415): the request was malformed.
        return problem(status, Problems.INVALID_REQUEST, e.getReason() == null ? status.getReasonPhrase() : e.getReason(),
                false, Map.of());
    }

    @ExceptionHandler(UnsupportedMediaTypeStatusException.class)
    ResponseEntity<ProblemDetail> mediaType(UnsupportedMediaTypeStatusException e) {
        return problem(HttpStatus.BAD_REQUEST, Problems.INVALID_REQUEST,
                "Content-Type: expected application/json", false, Map.of());
    }

    @ExceptionHandler(AbortedException.class)
    Mono<Void> clientGone(AbortedException e) {
        // The caller closed its connection: nobody is left to answer, and this is not a Border fault.
        log.debug("Caller went away: {}", e.getMessage());
        return Mono.empty();
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        // Unknown failures may have happened after bytes left for the target: say so, App must not retry.
        log.error("Unexpected failure while handling a request", e);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, Problems.UNAVAILABLE, "internal error", true, Map.of());
    }

    /**
     * Builds a problem response. (The authentication filter runs before any controller and writes its
     * fixed 401 body itself, with the same fields.)
     *
     * @param status          HTTP status
     * @param slug            problem type slug
     * @param detail          human-readable detail
     * @param targetContacted whether the target may have seen the request
     * @param properties      extra properties
     * @return the response entity with {@code application/problem+json}
     */
    static ResponseEntity<ProblemDetail> problem(HttpStatus status, String slug, String detail, boolean targetContacted,
                                                 Map<String, Object> properties) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(detail(status, slug, detail, targetContacted, properties));
    }

    static ProblemDetail detail(HttpStatus status, String slug, String detail, boolean targetContacted,
                                Map<String, Object> properties) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(Problems.type(slug)));
        body.setTitle(status.getReasonPhrase());
        body.setProperty(Problems.TARGET_CONTACTED, targetContacted);
        properties.forEach(body::setProperty);
        return body;
    }

    private static boolean findCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
