package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.forward.Problems;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** 400: the delivery request broke a rule; the detail and {@code field} name it. */
final class InvalidRequestException extends EgressProblemException {

    InvalidRequestException(String field, String rule) {
        super(HttpStatus.BAD_REQUEST, Problems.INVALID_REQUEST, field + ": " + rule, Map.of("field", field));
    }
}
