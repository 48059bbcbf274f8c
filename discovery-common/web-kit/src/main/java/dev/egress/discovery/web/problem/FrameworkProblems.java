package dev.egress.discovery.web.problem;

import io.netty.channel.ChannelException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebInputException;

/**
 * The one mapping of the web framework's own errors (no route, wrong method, wrong media type, an
 * unreadable or oversized body, a client too slow to send) to problems, shared by App and Border so a
 * client meets the same status and type for the same mistake on either. Each says what the caller did
 * wrong in the API's terms; the framework's words, which help a developer, go in {@code cause}.
 * Framework 5xx errors are not mapped: they are bugs, answered as the service's unexpected failure.
 */
public final class FrameworkProblems {

    private static final String TOO_LARGE = "request body is over the limit";

    private final String apiDescription;

    /**
     * Creates the mapping.
     *
     * @param apiDescription where the service describes its API (named in a 404's detail), or null
     */
    public FrameworkProblems(@Nullable String apiDescription) {
        this.apiDescription = apiDescription;
    }

    /**
     * The problem for a framework error.
     *
     * @param error   what the framework raised
     * @param request the request it raised it for (named in the detail)
     * @return the problem, or null when the error is not the caller's mistake (a bug)
     */
    public @Nullable Problem map(Throwable error, ServerHttpRequest request) {
        if (causedBy(error, DataBufferLimitException.class)) {
            return Problem.of(ProblemType.PAYLOAD_TOO_LARGE, TOO_LARGE);
        }
        if (error instanceof ChannelException) {
            // Reactor Netty's request timeout: the connection is being closed, the answer may not arrive.
            return Problem.of(ProblemType.REQUEST_TIMEOUT, "the request was not received in time");
        }
        if (error instanceof ServerWebInputException input) {
            return Problem.of(ProblemType.INVALID_REQUEST, input.getReason());
        }
        if (error instanceof ResponseStatusException e) {
            return statusProblem(e, request);
        }
        return null;
    }

    private @Nullable Problem statusProblem(ResponseStatusException e, ServerHttpRequest request) {
        HttpStatus status = HttpStatus.resolve(e.getStatusCode().value());
        if (status == null) {
            status = HttpStatus.BAD_REQUEST;
        }
        if (status.is5xxServerError()) {
            return null;
        }
        if (status == HttpStatus.CONTENT_TOO_LARGE) {
            return Problem.of(ProblemType.PAYLOAD_TOO_LARGE, TOO_LARGE);
        }
        ProblemType type = switch (status) {
            case UNAUTHORIZED -> ProblemType.UNAUTHORIZED;
            case NOT_FOUND -> ProblemType.NOT_FOUND;
            case METHOD_NOT_ALLOWED -> ProblemType.METHOD_NOT_ALLOWED;
            case NOT_ACCEPTABLE -> ProblemType.NOT_ACCEPTABLE;
            case UNSUPPORTED_MEDIA_TYPE -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            case TOO_MANY_REQUESTS -> ProblemType.TOO_MANY_REQUESTS;
            default -> ProblemType.INVALID_REQUEST;
        };
        Problem problem =
                Problem.of(type, wording(status, request, e.getReason())).withStatus(status);
        return e.getReason() == null ? problem : problem.with("cause", e.getReason());
    }

    /** Says what the caller did wrong in the API's terms; the framework's reason is the fallback. */
    private String wording(HttpStatus status, ServerHttpRequest request, String reason) {
        String call = request.getMethod().name() + " " + request.getPath().value();
        return switch (status) {
            case NOT_FOUND ->
                apiDescription == null
                        ? "no endpoint answers %s".formatted(call)
                        : "no endpoint answers %s (the API is described at %s)".formatted(call, apiDescription);
            case METHOD_NOT_ALLOWED -> "%s: method not allowed on this path".formatted(call);
            case UNSUPPORTED_MEDIA_TYPE ->
                "Content-Type %s is not accepted (expected: application/json)"
                        .formatted(contentType(request.getHeaders().getContentType()));
            case NOT_ACCEPTABLE -> "Accept does not allow application/json or application/problem+json";
            default -> reason != null ? reason : status.getReasonPhrase();
        };
    }

    private static String contentType(MediaType type) {
        return type == null ? "(none)" : "'" + type + "'";
    }

    private static boolean causedBy(Throwable error, Class<? extends Throwable> type) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
