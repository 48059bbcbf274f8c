package dev.egress.app;

import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemException;
import dev.egress.discovery.web.problem.ProblemType;

/**
 * A failure that App's public API reports as a problem: App's branch of the shared problem model
 * ({@link ProblemException}), mapped once by {@link ProblemAdvice}. Thrown on the request path, so it
 * carries no stack trace. Unlike Border's, App's problems state {@code targetContacted} only where a
 * delivery was under way.
 */
public class EgressProblemException extends ProblemException {

    /**
     * Creates a problem.
     *
     * @param problem the answer
     */
    public EgressProblemException(Problem problem) {
        super(problem, null);
    }

    /**
     * Creates a problem with the type's usual status and no further members.
     *
     * @param type   the problem type
     * @param detail human-readable detail (never contains secrets)
     */
    public EgressProblemException(ProblemType type, String detail) {
        this(Problem.of(type, detail));
    }
}
