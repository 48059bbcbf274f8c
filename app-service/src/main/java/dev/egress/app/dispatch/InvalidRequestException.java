package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;

/** 400: the delivery request broke a rule; the detail and {@code field} name it. */
final class InvalidRequestException extends EgressProblemException {

    InvalidRequestException(String field, String rule) {
        super(Problem.of(ProblemType.INVALID_REQUEST, field + ": " + rule).with("field", field));
    }
}
