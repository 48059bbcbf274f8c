package dev.egress.app.dispatch;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.web.problem.Problem;

/** A delivery that ended without the target's answer (target denied, unreachable, timed out, ...). */
final class DeliveryFailedException extends EgressProblemException {

    DeliveryFailedException(Problem problem) {
        super(problem);
    }
}
