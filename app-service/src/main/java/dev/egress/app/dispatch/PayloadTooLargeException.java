package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.forward.Problems;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** 413: the request body is over {@code egress.dispatch.max-request-size}. */
final class PayloadTooLargeException extends EgressProblemException {

    PayloadTooLargeException(long limitBytes) {
        super(HttpStatus.CONTENT_TOO_LARGE, Problems.PAYLOAD_TOO_LARGE,
                "request body is over %d bytes".formatted(limitBytes), Map.of("limitBytes", limitBytes));
    }
}
