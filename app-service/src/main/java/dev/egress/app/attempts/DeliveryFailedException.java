package dev.egress.app.attempts;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.web.problem.Problem;

/** A delivery that ended without the target's answer (target denied, unreachable, timed out, ...). */
public final class DeliveryFailedException extends EgressProblemException {

    public DeliveryFailedException(Problem problem) {
        super(problem);
    }
}
