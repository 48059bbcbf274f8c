package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import java.time.Duration;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** A delivery that ended without the target's answer (target denied, unreachable, timed out, ...). */
final class DeliveryFailedException extends EgressProblemException {

    private final Duration retryAfter;

    DeliveryFailedException(HttpStatus status, String slug, String detail, Map<String, Object> properties,
                            Duration retryAfter) {
        super(status, slug, detail, properties);
        this.retryAfter = retryAfter;
    }

    @Override
    public Duration retryAfter() {
        return retryAfter;
    }
}
