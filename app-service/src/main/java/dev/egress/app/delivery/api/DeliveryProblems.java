package dev.egress.app.delivery.api;

import dev.egress.app.EgressProblemException;
import dev.egress.app.delivery.DeliveryStoreException;
import dev.egress.app.delivery.IdempotencyConflictException;
import dev.egress.app.delivery.NotRetryableException;
import dev.egress.discovery.web.problem.ProblemType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's refusals as App's problems, in one place: the API turns every {@link DeliveryStoreException} into
 * an {@link EgressProblemException} here, and the problem advice renders it.
 */
final class DeliveryProblems {

    private static final Logger log = LoggerFactory.getLogger(DeliveryProblems.class);

    private DeliveryProblems() {}

    static Throwable of(Throwable e) {
        if (e instanceof IdempotencyConflictException) {
            return new EgressProblemException(ProblemType.IDEMPOTENCY_KEY_REUSED, e.getMessage());
        }
        if (e instanceof NotRetryableException) {
            return new EgressProblemException(ProblemType.NOT_RETRYABLE, e.getMessage());
        }
        if (e instanceof DeliveryStoreException) {
            log.warn("Delivery store failed: {}", e.getMessage());
            return new EgressProblemException(
                    ProblemType.UNAVAILABLE, "the delivery store is unavailable; retry later");
        }
        return e;
    }

    static EgressProblemException unknown(String id) {
        return new EgressProblemException(ProblemType.UNKNOWN_DELIVERY, "no delivery '%s'".formatted(id));
    }

    static EgressProblemException off() {
        return new EgressProblemException(
                ProblemType.DURABLE_DELIVERY_OFF,
                "durable delivery is off on this App (egress.delivery.store.connection-string is empty)");
    }
}
