package dev.egress.discovery.web.problem;

import io.netty.channel.ChannelException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.netty.channel.AbortedException;

/**
 * The one place where failures become HTTP, shared by App and Border: a service's
 * {@code @RestControllerAdvice} extends it and says only what is its own (how it answers a bug, and
 * what its problems state about the target). Typed {@link ProblemException}s carry their answer;
 * framework errors go through {@link FrameworkProblems}; anything else is logged once here with its
 * cause and answered without internals.
 */
public abstract class ProblemAdviceSupport {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdviceSupport.class);

    private final FrameworkProblems framework;

    /**
     * Creates the advice.
     *
     * @param framework the mapping of framework errors
     */
    protected ProblemAdviceSupport(FrameworkProblems framework) {
        this.framework = framework;
    }

    /**
     * A typed failure: its own problem.
     *
     * @param e the failure
     * @return the problem response
     */
    @ExceptionHandler(ProblemException.class)
    public ResponseEntity<ProblemDetail> typed(ProblemException e) {
        return ProblemResponses.entity(answer(e.problem()));
    }

    /**
     * A framework error: no route, wrong method or media type, unreadable or oversized body, slow client.
     *
     * @param e        the error
     * @param exchange the request, to name the call in the detail
     * @return the problem response
     */
    @ExceptionHandler({ResponseStatusException.class, DataBufferLimitException.class, ChannelException.class})
    public ResponseEntity<ProblemDetail> framework(Exception e, ServerWebExchange exchange) {
        Problem problem = framework.map(e, exchange.getRequest());
        if (problem == null) {
            return unexpected(e);
        }
        if (e instanceof ChannelException) {
            // A slow client is not a bug, and one per connection must not flood the log.
            log.debug("Request not received completely ({}); closing the connection", e.getMessage());
        }
        return ProblemResponses.entity(answer(problem));
    }

    /**
     * The caller closed its connection: nobody is left to answer, and it is not this service's fault.
     *
     * @param e the error
     * @return nothing to write
     */
    @ExceptionHandler(AbortedException.class)
    public Mono<Void> clientGone(AbortedException e) {
        log.debug("Caller went away: {}", e.getMessage());
        return Mono.empty();
    }

    /**
     * A bug: logged with its cause, answered with the service's own problem.
     *
     * @param e the error
     * @return the problem response
     */
    @ExceptionHandler(Exception.class)
    public ResponseEntity<ProblemDetail> unexpected(Exception e) {
        log.error("Unexpected failure while serving a request", e);
        return ProblemResponses.entity(answer(unexpectedProblem()));
    }

    /**
     * How this service answers a bug.
     *
     * @return the problem
     */
    protected abstract Problem unexpectedProblem();

    /**
     * The last word of the service on every problem it answers (Border states {@code targetContacted}
     * on all of them).
     *
     * @param problem the problem
     * @return the problem to answer; this one by default
     */
    protected Problem answer(Problem problem) {
        return problem;
    }
}
