package dev.egress.app;

import dev.egress.discovery.forward.Problems;
import io.netty.channel.ChannelException;
import java.net.URI;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;

/**
 * The one place where failures become HTTP: every typed exception maps to an RFC 9457 problem with a
 * stable {@code type}. Framework input errors are 4xx, never 5xx; anything unexpected is a 500 that is
 * logged once here with its cause.
 */
@RestControllerAdvice
public class ProblemAdvice {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    /** Problem slug: the client did not send its request within the listener's deadline. */
    public static final String REQUEST_TIMEOUT = "request-timeout";

    /**
     * Maps a typed problem.
     *
     * @param e the problem
     * @return the problem response
     */
    @ExceptionHandler(EgressProblemException.class)
    public ResponseEntity<ProblemDetail> problem(EgressProblemException e) {
        ProblemDetail body = body(e.status(), e.slug(), e.getMessage());
        e.properties().forEach(body::setProperty);
        ResponseEntity.BodyBuilder response = ResponseEntity.status(e.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        Duration retryAfter = e.retryAfter();
        if (retryAfter != null) {
            response.header(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())));
        }
        return response.body(body);
    }

    /**
     * An input the framework could not read (bad JSON, bad path variable): always 400.
     *
     * @param e the error
     * @return a 400 problem
     */
    @ExceptionHandler(ServerWebInputException.class)
    public ResponseEntity<ProblemDetail> badInput(ServerWebInputException e) {
        return respond(body(HttpStatus.BAD_REQUEST, Problems.INVALID_REQUEST, e.getReason()));
    }

    /**
     * A body over the in-memory limit: 413.
     *
     * @param e the error
     * @return a 413 problem
     */
    @ExceptionHandler(DataBufferLimitException.class)
    public ResponseEntity<ProblemDetail> tooLarge(DataBufferLimitException e) {
        return respond(body(HttpStatus.CONTENT_TOO_LARGE, Problems.PAYLOAD_TOO_LARGE, "request body is over the limit"));
    }

    /**
     * The client's connection failed while its request was read — typically Reactor Netty's request
     * timeout ({@code egress.server.request-body-timeout}): 408, without a stack trace in the log (a slow
     * client is not a bug, and one per connection must not flood the log). The connection is being
     * closed, so the answer may not reach the client.
     *
     * @param e the error
     * @return a 408 problem
     */
    @ExceptionHandler(ChannelException.class)
    public ResponseEntity<ProblemDetail> requestTimeout(ChannelException e) {
        log.debug("Request not received completely ({}); closing the connection", e.getMessage());
        return respond(body(HttpStatus.REQUEST_TIMEOUT, REQUEST_TIMEOUT, "the request was not received in time"));
    }

    /**
     * Any other status the framework chose (404 no route, 405, 415, ...).
     *
     * @param e        the error
     * @param exchange the request, to name the call in the detail
     * @return a problem with the same status
     */
    @ExceptionHandler(ResponseStatusException.class)
    public ResponseEntity<ProblemDetail> status(ResponseStatusException e, ServerWebExchange exchange) {
        HttpStatus status = HttpStatus.resolve(e.getStatusCode().value());
        if (status == null) {
            status = HttpStatus.BAD_REQUEST;
        }
        ProblemDetail problem = body(status, slugOf(status), userWording(status, exchange, e.getReason()));
        if (e.getReason() != null) {
            // The framework's own words ("No static resource v1/delivery") help a developer, not a user.
            problem.setProperty("cause", e.getReason());
        }
        return respond(problem);
    }

    /** Says what the caller did wrong in the API's terms; the framework's reason is the fallback. */
    private static String userWording(HttpStatus status, ServerWebExchange exchange, String reason) {
        ServerHttpRequest request = exchange.getRequest();
        String call = request.getMethod().name() + " " + request.getPath().value();
        return switch (status) {
            case NOT_FOUND -> "no endpoint answers %s (the API is described at /v3/api-docs)".formatted(call);
            case METHOD_NOT_ALLOWED -> "%s: method not allowed on this path".formatted(call);
            case UNSUPPORTED_MEDIA_TYPE -> "Content-Type %s is not accepted (expected: application/json)"
                    .formatted(request.getHeaders().getContentType() == null ? "(none)"
                            : "'" + request.getHeaders().getContentType() + "'");
            case NOT_ACCEPTABLE -> "Accept does not allow application/json or application/problem+json";
            default -> reason;
        };
    }

    /**
     * A bug: logged with its cause, reported without internals.
     *
     * @param e the error
     * @return a 500 problem
     */
    @ExceptionHandler(Exception.class)
    public ResponseEntity<ProblemDetail> unexpected(Exception e) {
        log.error("Unexpected failure while serving a request", e);
        return respond(body(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "unexpected server error"));
    }

    /**
     * Builds a problem body. Shared with the authentication filter, which answers before any controller.
     *
     * @param status the status
     * @param slug   the type slug
     * @param detail the detail, may be null
     * @return the problem
     */
    public static ProblemDetail body(HttpStatus status, String slug, String detail) {
        ProblemDetail problem = ProblemDetail.forStatus(status);
        problem.setType(URI.create(Problems.type(slug)));
        problem.setTitle(status.getReasonPhrase());
        if (detail != null) {
            problem.setDetail(detail);
        }
        return problem;
    }

    private static ResponseEntity<ProblemDetail> respond(ProblemDetail body) {
        return ResponseEntity.status(body.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(body);
    }

    private static String slugOf(HttpStatus status) {
        return switch (status) {
            case BAD_REQUEST -> Problems.INVALID_REQUEST;
            case UNAUTHORIZED -> Problems.UNAUTHORIZED;
            case CONTENT_TOO_LARGE -> Problems.PAYLOAD_TOO_LARGE;
            case TOO_MANY_REQUESTS -> Problems.TOO_MANY_REQUESTS;
            case SERVICE_UNAVAILABLE -> Problems.UNAVAILABLE;
            case NOT_FOUND -> "not-found";
            case METHOD_NOT_ALLOWED -> "method-not-allowed";
            case UNSUPPORTED_MEDIA_TYPE -> "unsupported-media-type";
            case NOT_ACCEPTABLE -> "not-acceptable";
            default -> status.is4xxClientError() ? Problems.INVALID_REQUEST : "internal";
        };
    }
}
