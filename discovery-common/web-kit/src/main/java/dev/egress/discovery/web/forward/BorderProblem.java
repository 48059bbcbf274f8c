package dev.egress.discovery.web.forward;

import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Border's problem answer as App reads it: the slug of its {@code type}, its {@code reason} and
 * {@code detail}, and whether the target may have been contacted. The Border writes these members
 * ({@link Problem#REASON}, {@link Problem#TARGET_CONTACTED}); reading them lives beside the contract so that
 * both sides agree on it. Decoding is lenient, since any proxy in between may answer instead of the Border: a
 * missing or unreadable member is null, and only an explicit {@code targetContacted: false} says the target was
 * not reached (anything else may have reached it, so App never resends).
 *
 * @param slug            the problem type's slug ({@code urn:egress:problem:<slug>}), or null when absent or
 *                        not one of ours
 * @param reason          the typed reason, or null
 * @param detail          the detail, or null
 * @param targetContacted false only when the Border said so explicitly
 */
public record BorderProblem(
        @Nullable String slug,
        @Nullable String reason,
        @Nullable String detail,
        boolean targetContacted) {

    /**
     * Reads the body of a Border's non-200 answer.
     *
     * @param json the mapper
     * @param body the answer's body
     * @return the problem as far as the body states it (JSON that is not an object states nothing), or empty when
     *         the body is not JSON at all
     */
    public static Optional<BorderProblem> read(JsonMapper json, byte[] body) {
        JsonNode problem;
        try {
            problem = json.readTree(body);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        if (problem == null || !problem.isObject()) {
            return Optional.of(new BorderProblem(null, null, null, true));
        }
        String type = text(problem, "type");
        JsonNode flag = problem.get(Problem.TARGET_CONTACTED);
        return Optional.of(new BorderProblem(
                type == null ? null : ProblemType.slugOf(type),
                text(problem, Problem.REASON),
                text(problem, "detail"),
                flag == null || !flag.isBoolean() || flag.booleanValue()));
    }

    private static @Nullable String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isString() ? value.stringValue() : null;
    }
}
