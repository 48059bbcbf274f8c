package dev.egress.app;

import dev.egress.discovery.web.problem.FrameworkProblems;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemAdviceSupport;
import dev.egress.discovery.web.problem.ProblemType;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * App's problem answers: the shared mapping ({@link ProblemAdviceSupport}), with what is App's own: a
 * 404 points at the API description, and a bug is a 500 {@code internal} without internals.
 */
@RestControllerAdvice
public class ProblemAdvice extends ProblemAdviceSupport {

    /** Creates the advice. */
    public ProblemAdvice() {
        super(new FrameworkProblems("/v3/api-docs"));
    }

    @Override
    protected Problem unexpectedProblem() {
        return Problem.of(ProblemType.INTERNAL, "unexpected server error");
    }
}
