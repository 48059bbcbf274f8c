package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;

/** 413: the request body is over {@code egress.dispatch.max-request-size}. */
final class PayloadTooLargeException extends EgressProblemException {

    PayloadTooLargeException(long limitBytes) {
        super(Problem.of(ProblemType.PAYLOAD_TOO_LARGE, "request body is over %d bytes".formatted(limitBytes))
                .with("limitBytes", limitBytes));
    }
}
