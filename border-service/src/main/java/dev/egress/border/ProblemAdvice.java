package dev.egress.border;

import dev.egress.discovery.web.problem.FrameworkProblems;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemAdviceSupport;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Border's problem answers: the shared mapping ({@link ProblemAdviceSupport}), with what is Border's
 * own: every problem states {@code targetContacted} so that App can tell a safe retry from a possible
 * duplicate, and a bug is a 500 {@code unavailable} that may have happened after bytes left for the
 * target, so App must not retry it.
 */
@RestControllerAdvice
class ProblemAdvice extends ProblemAdviceSupport {

    ProblemAdvice() {
        super(new FrameworkProblems(null));
    }

    @Override
    protected Problem unexpectedProblem() {
        return Problem.of(ProblemType.UNAVAILABLE, "internal error")
                .withStatus(HttpStatus.INTERNAL_SERVER_ERROR)
                .withTargetContact(TargetContact.POSSIBLE);
    }

    @Override
    protected Problem answer(Problem problem) {
        return problem.targetContact() == TargetContact.UNSTATED
                ? problem.withTargetContact(TargetContact.NONE)
                : problem;
    }
}
